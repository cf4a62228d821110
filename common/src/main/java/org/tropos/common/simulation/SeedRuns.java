package org.tropos.common.simulation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;

/**
 * Runs a range of seeds of a deterministic simulation (issue 44) on a few threads, each with its own
 * {@link Runner} (a database of its own), so each seed runs on one thread and replays alike on its own. Used by
 * the tests' seed budgets and by {@code tropos bench simulate}.
 */
public final class SeedRuns {
  /** Failures kept in the report: the first ones, by seed. */
  private static final int KEPT_FAILURES = 10;

  private SeedRuns() {
  }

  /** What one seed's run found. */
  public interface Outcome {
    long seed();

    /** What went wrong, with the seed and what led to it; null when the run passed. */
    String failure();

    default boolean passed() {
      return failure() == null;
    }
  }

  /** One thread's means of running seeds, one after another; closed when the thread is done. */
  public interface Runner<O extends Outcome> extends AutoCloseable {
    O run(long seed) throws IOException;

    @Override
    void close() throws IOException;
  }

  /** Opens a {@link Runner} for a thread. */
  @FunctionalInterface
  public interface RunnerFactory<O extends Outcome> {
    Runner<O> open() throws IOException;
  }

  /**
   * What a range of seeds found; {@code work} is what they did as the simulation counts it (acknowledged blocks,
   * committed transactions).
   */
  public record Report<O extends Outcome>(long seeds, long failed, List<O> firstFailures, long work,
      Duration took) {
    public double seedsPerSecond() {
      return seeds / Math.max(1e-9, took.toNanos() / 1e9);
    }
  }

  /**
   * Runs seeds {@code first} to {@code first + count - 1} on {@code threads} threads.
   *
   * @param work what a seed's outcome counts towards {@link Report#work}
   * @param clock times the whole (the runs have their own, simulated clocks)
   */
  public static <O extends Outcome> Report<O> run(long first, long count, int threads, RunnerFactory<O> runners,
      ToLongFunction<O> work, Clock clock) throws IOException {
    long started = clock.monotonicNanos();
    AtomicLong next = new AtomicLong(first);
    ExecutorService pool = Threads.boundedPool("simulation", threads, threads);
    List<Future<List<O>>> workers = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        workers.add(pool.submit(() -> runFrom(next, first + count, runners)));
      }
      List<O> outcomes = new ArrayList<>();
      for (Future<List<O>> worker : workers) {
        outcomes.addAll(worker.get());
      }
      List<O> failures = outcomes.stream().filter(o -> !o.passed()).sorted(Comparator.comparingLong(O::seed))
          .toList();
      return new Report<>(outcomes.size(), failures.size(), failures.subList(0, Math.min(KEPT_FAILURES,
          failures.size())), outcomes.stream().mapToLong(work).sum(),
          Duration.ofNanos(clock.monotonicNanos() - started));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IOException("a simulation thread failed: " + e.getCause(), e.getCause());
    } finally {
      Threads.shutdown(pool, Duration.ofSeconds(5));
    }
  }

  /** One thread's share: seeds taken in turn until {@code end}. */
  private static <O extends Outcome> List<O> runFrom(AtomicLong next, long end, RunnerFactory<O> runners)
      throws IOException {
    List<O> outcomes = new ArrayList<>();
    try (Runner<O> runner = runners.open()) {
      for (long seed = next.getAndIncrement(); seed < end; seed = next.getAndIncrement()) {
        outcomes.add(runner.run(seed));
      }
    }
    return outcomes;
  }

  /** A fresh directory for a run's databases, in memory (/dev/shm) where the machine has it: syncs cost nothing. */
  public static Path scratchDirectory() throws IOException {
    Path shm = Path.of("/dev/shm");
    return Files.isDirectory(shm) && Files.isWritable(shm)
        ? Files.createTempDirectory(shm, "tropos-simulation")
        : Files.createTempDirectory("tropos-simulation");
  }
}
