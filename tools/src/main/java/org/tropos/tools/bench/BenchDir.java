package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.tropos.common.io.FileTrees;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Closer;
import org.tropos.common.util.NamedThreadFactory;
import org.tropos.common.util.SystemClock;

/**
 * Where a benchmark keeps its data: the directory the user gave (kept), else a temporary one, deleted when the
 * benchmark ends however it ends: normally, by an exception, or by Ctrl-C or SIGTERM (a stopped benchmark left
 * gigabytes behind). On such a stop the clusters and processes registered with {@link #stopOnExit} are closed
 * first, so nothing writes into the directory while it is deleted.
 *
 * <p>Thread-safe: the JVM's shutdown hook may run beside the benchmark's thread.
 */
final class BenchDir implements AutoCloseable {
  /** Deleting runs again while files reappear (a writer not yet stopped); past this it gives up. */
  private static final int DELETE_ROUNDS = 20;
  private static final Duration BETWEEN_ROUNDS = Duration.ofMillis(250);

  private final Path path;
  private final boolean temporary;
  private final List<AutoCloseable> running = new ArrayList<>();
  private final Thread onExit;
  private final Clock clock = SystemClock.INSTANCE;

  private BenchDir(Path path, boolean temporary) {
    this.path = path;
    this.temporary = temporary;
    this.onExit = new NamedThreadFactory("bench-dir-cleanup", false).newThread(this::stopAndDelete);
    Runtime.getRuntime().addShutdownHook(onExit);
  }

  /** {@code given} if the user named one (created if missing), else a new temporary directory named {@code prefix}. */
  static BenchDir open(Path given, String prefix) throws IOException {
    return given != null ? new BenchDir(Files.createDirectories(given), false)
        : new BenchDir(Files.createTempDirectory(prefix), true);
  }

  Path path() {
    return path;
  }

  /**
   * Has {@code component} closed if the JVM stops while it runs. Closing the returned handle (before the
   * component, as try-with-resources does when the handle is declared after it) ends that.
   */
  AutoCloseable stopOnExit(AutoCloseable component) {
    synchronized (running) {
      running.add(component);
    }
    return () -> {
      synchronized (running) {
        running.remove(component);
      }
    };
  }

  /** Deletes the directory if it is temporary; the JVM no longer needs to on its way out. */
  @Override
  public void close() throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(onExit);
    } catch (IllegalStateException shuttingDown) {
      return; // the hook is already deleting it
    }
    if (temporary) {
      FileTrees.delete(path);
    }
  }

  private void stopAndDelete() {
    List<AutoCloseable> toStop;
    synchronized (running) {
      toStop = new ArrayList<>(running);
    }
    Collections.reverse(toStop);
    Closer.closeAll("benchmark", toStop.toArray(AutoCloseable[]::new));
    if (!temporary) {
      return;
    }
    try {
      deleteWhileFilesReappear();
    } catch (IOException | InterruptedException e) {
      System.err.println("tropos bench: could not delete " + path + ": " + e);
    }
  }

  private void deleteWhileFilesReappear() throws IOException, InterruptedException {
    IOException last = null;
    for (int round = 0; round < DELETE_ROUNDS; round++) {
      try {
        FileTrees.delete(path);
        if (!Files.exists(path)) {
          return;
        }
      } catch (IOException e) {
        last = e; // a directory that a writer filled again after it was emptied
      }
      clock.pause(BETWEEN_ROUNDS);
    }
    throw last != null ? last : new IOException("files kept appearing in it");
  }
}
