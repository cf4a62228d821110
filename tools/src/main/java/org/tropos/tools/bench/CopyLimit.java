package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.tropos.common.util.Clock;

/**
 * The machine's copy limit, the baseline that recovery is held to: every file under a directory copied to another
 * on the same disk, each forced to disk.
 */
final class CopyLimit {
  /** What a copy moved, and how long it took. */
  record Copy(long bytes, double seconds) {
    double mbps() {
      return bytes / 1e6 / seconds;
    }
  }

  private CopyLimit() {
  }

  static Copy measure(Path from, Path to, Clock clock) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(from)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    long bytes = 0;
    long start = clock.monotonicNanos();
    for (Path file : files) {
      Path target = to.resolve(from.relativize(file).toString());
      Files.createDirectories(target.getParent());
      try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
          FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        long size = in.size();
        for (long done = 0; done < size; ) {
          done += in.transferTo(done, size - done, out);
        }
        out.force(true);
        bytes += size;
      }
    }
    return new Copy(bytes, (clock.monotonicNanos() - start) / 1e9);
  }
}
