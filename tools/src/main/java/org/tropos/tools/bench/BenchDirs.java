package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Where a benchmark keeps its data: the given directory (kept), else a temporary one (deleted afterwards). */
final class BenchDirs {
  private BenchDirs() {
  }

  static Path open(Path given, String prefix) throws IOException {
    return given != null ? Files.createDirectories(given) : Files.createTempDirectory(prefix);
  }

  /** Deletes {@code root} unless the user gave it. */
  static void close(Path given, Path root) throws IOException {
    if (given != null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
