package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A benchmark's temporary directory is deleted when it ends, and when it is stopped by SIGTERM midway. */
@Timeout(240)
class BenchDirTest {
  @TempDir
  Path dir;

  @Test
  void aTemporaryDirectoryIsDeletedOnCloseAndAGivenOneKept() throws IOException {
    Path given = dir.resolve("given");
    Path temporary;
    try (BenchDir kept = BenchDir.open(given, "unused"); BenchDir scratch = BenchDir.open(null, "bench-dir-test")) {
      temporary = scratch.path();
      Files.writeString(kept.path().resolve("a"), "kept");
      Files.createDirectories(temporary.resolve("b/c"));
      Files.writeString(temporary.resolve("b/c/d"), "deleted");
    }
    assertTrue(Files.exists(given.resolve("a")));
    assertFalse(Files.exists(temporary));
  }

  /** {@code tropos bench fs} in a JVM of its own, stopped by SIGTERM while its cluster takes writes. */
  @Test
  void aBenchmarkStoppedBySigtermRemovesItsCluster() throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Process bench = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
        "org.tropos.tools.Tropos", "bench", "fs", "--files", "100000", "--file-sizes", "1KB", "--writers", "2")
        .redirectErrorStream(true).redirectOutput(dir.resolve("bench.log").toFile()).start();
    try {
      Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
      while (!writing(tmp) && bench.isAlive() && Instant.now().isBefore(deadline)) {
        TimeUnit.MILLISECONDS.sleep(200); // a real process, starting in its own time: polled
      }
      assertTrue(bench.isAlive() && writing(tmp), "the benchmark did not start writing: "
          + Files.readString(dir.resolve("bench.log")));
      bench.destroy(); // SIGTERM
      assertTrue(bench.waitFor(60, TimeUnit.SECONDS), "the benchmark did not stop");
    } finally {
      bench.destroyForcibly().waitFor();
    }
    try (Stream<Path> left = Files.list(tmp)) {
      List<Path> benchDirs = left.filter(p -> p.getFileName().toString().startsWith("tropos-bench")).toList();
      assertEquals(List.of(), benchDirs, "left behind; the log: " + Files.readString(dir.resolve("bench.log")));
    }
  }

  /** Whether a task output was written: the datanodes' block files hold bytes. */
  private static boolean writing(Path tmp) throws IOException {
    try (Stream<Path> files = Files.walk(tmp)) {
      return files.anyMatch(p -> p.getFileName().toString().endsWith(".block"));
    } catch (java.io.UncheckedIOException e) {
      return false; // a file went away while it was walked
    }
  }
}
