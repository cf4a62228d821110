package org.tropos.tools.bench;

import com.sun.jna.FunctionMapper;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Drops files from the kernel's page cache ({@code posix_fadvise(DONTNEED)} after an {@code fsync}, through JNA), so
 * that a benchmark reads them from the disk: the rebuilds of {@code tropos bench ec} are held to what the disk
 * moves, and Tropos and HDFS write their block files differently (past the page cache, through it).
 */
final class PageCache {
  private static final int READ_ONLY = 0;
  private static final int DONT_NEED = 4; // POSIX_FADV_DONTNEED on Linux
  private static final Map<String, String> C_NAMES = Map.of("fadvise", "posix_fadvise");

  static {
    FunctionMapper names = (library, method) -> C_NAMES.getOrDefault(method.getName(), method.getName());
    Native.register(PageCache.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME,
        Map.of(Library.OPTION_FUNCTION_MAPPER, names)));
  }

  private PageCache() {
  }

  /** Every regular file under {@code dir} written out and dropped from the page cache. */
  static void evict(Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    for (Path file : files) {
      int fd = open(file.toString(), READ_ONLY);
      if (fd < 0) {
        continue; // gone since the walk (a datanode deleting a replica)
      }
      try {
        if (fsync(fd) != 0 || fadvise(fd, 0, 0, DONT_NEED) != 0) {
          throw new IOException("cannot drop " + file + " from the page cache (errno " + Native.getLastError() + ")");
        }
      } finally {
        close(fd);
      }
    }
  }

  private static native int open(String path, int flags);

  private static native int fsync(int fd);

  private static native int fadvise(int fd, long offset, long length, int advice);

  private static native int close(int fd);
}
