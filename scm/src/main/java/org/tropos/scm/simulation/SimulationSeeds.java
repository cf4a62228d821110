package org.tropos.scm.simulation;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.tropos.common.io.FileTrees;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;
import org.tropos.scm.db.ScmDb;

/**
 * Runs a range of seeds of the {@link ControlPlaneSimulation}, on a few threads each with a database of its own
 * (each run stays on one thread, so each replays alike on its own). Used by the tests' seed budget and by
 * {@code tropos bench simulate}.
 */
public final class SimulationSeeds {
  /** Failures kept in the report: the first ones, by seed. */
  private static final int KEPT_FAILURES = 10;

  private SimulationSeeds() {
  }

  /** What a range of seeds found. */
  public record Report(long seeds, long failed, List<ControlPlaneSimulation.Outcome> firstFailures,
      long acknowledged, Duration took) {
    public double seedsPerSecond() {
      return seeds / Math.max(1e-9, took.toNanos() / 1e9);
    }
  }

  /**
   * Runs seeds {@code first} to {@code first + count - 1} on {@code threads} threads.
   *
   * @param flaw a bug to plant; {@link PlantedFlaw#NONE} normally
   * @param clock times the whole (the runs have their own, simulated clocks)
   */
  public static Report run(long first, long count, int threads, ControlPlaneSimulation.Schedule schedule,
      PlantedFlaw flaw, Clock clock) throws IOException {
    long started = clock.monotonicNanos();
    AtomicLong next = new AtomicLong(first);
    ExecutorService pool = Threads.boundedPool("simulation", threads, threads);
    List<Future<List<ControlPlaneSimulation.Outcome>>> workers = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        workers.add(pool.submit(() -> runFrom(next, first + count, schedule, flaw)));
      }
      List<ControlPlaneSimulation.Outcome> outcomes = new ArrayList<>();
      for (Future<List<ControlPlaneSimulation.Outcome>> worker : workers) {
        outcomes.addAll(worker.get());
      }
      List<ControlPlaneSimulation.Outcome> failures = outcomes.stream().filter(o -> !o.passed())
          .sorted(Comparator.comparingLong(ControlPlaneSimulation.Outcome::seed)).toList();
      return new Report(outcomes.size(), failures.size(), failures.subList(0, Math.min(KEPT_FAILURES,
          failures.size())), outcomes.stream().mapToLong(ControlPlaneSimulation.Outcome::acknowledged).sum(),
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

  /** One thread's share: seeds taken in turn until {@code end}, on a database of its own. */
  private static List<ControlPlaneSimulation.Outcome> runFrom(AtomicLong next, long end,
      ControlPlaneSimulation.Schedule schedule, PlantedFlaw flaw) throws IOException {
    Path dir = ControlPlaneSimulation.scratchDirectory();
    List<ControlPlaneSimulation.Outcome> outcomes = new ArrayList<>();
    try (ScmDb db = ScmDb.open(dir)) {
      for (long seed = next.getAndIncrement(); seed < end; seed = next.getAndIncrement()) {
        outcomes.add(ControlPlaneSimulation.run(seed, db, schedule, flaw));
      }
    } finally {
      FileTrees.delete(dir);
    }
    return outcomes;
  }
}
