package org.tropos.common.io;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;

/** Whole directory trees, which may change while they are walked. */
public final class FileTrees {
  private FileTrees() {
  }

  /** What the walk does with a file it visits. */
  @FunctionalInterface
  private interface FileVisit {
    void visit(Path file, BasicFileAttributes attributes) throws IOException;
  }

  /** What the walk does with a directory once its contents were visited. */
  @FunctionalInterface
  private interface DirectoryDone {
    void done(Path directory) throws IOException;
  }

  /** Deletes a directory and everything in it; what is already gone counts as deleted. */
  public static void delete(Path dir) throws IOException {
    walk(dir, (file, attributes) -> Files.deleteIfExists(file), Files::deleteIfExists);
  }

  /**
   * The regular files under {@code root} with their sizes (none if it does not exist). Files come and go while
   * they are walked (RocksDB's temporary files, a datanode's disk probe): one gone before it was read is skipped.
   */
  public static Map<Path, Long> regularFileSizes(Path root) throws IOException {
    Map<Path, Long> sizes = new HashMap<>();
    walk(root, (file, attributes) -> {
      if (attributes.isRegularFile()) {
        sizes.put(file, attributes.size());
      }
    }, directory -> { });
    return sizes;
  }

  /** Bytes in the regular files under {@code root} (a du; 0 if it does not exist), counted as regularFileSizes. */
  public static long regularFileBytes(Path root) throws IOException {
    long[] bytes = {0};
    walk(root, (file, attributes) -> {
      if (attributes.isRegularFile()) {
        bytes[0] += attributes.size();
      }
    }, directory -> { });
    return bytes[0];
  }

  /** Walks {@code root} if it exists; a file or directory gone before it was visited is skipped. */
  private static void walk(Path root, FileVisit onFile, DirectoryDone onDirectory) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
        onFile.visit(file, attributes);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw e;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
        if (e != null && !(e instanceof NoSuchFileException)) {
          throw e;
        }
        onDirectory.done(directory);
        return FileVisitResult.CONTINUE;
      }
    });
  }
}
