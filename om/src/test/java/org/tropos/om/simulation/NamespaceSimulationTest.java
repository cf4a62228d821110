package org.tropos.om.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tropos.om.simulation.NamespaceSimulation.PlantedFlaw.FORGETS_CALLS;
import static org.tropos.om.simulation.NamespaceSimulation.PlantedFlaw.NONE;

import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.util.SystemClock;

/**
 * The OM's seeded simulation (issue 44) over the CI budget of seeds. {@code -Dsimulation.om.seeds=N} and
 * {@code -Dsimulation.om.seed=S} move the budget; a failing seed replays with {@code -Dsimulation.om.seeds=1}.
 */
class NamespaceSimulationTest {
  private static final long SEEDS = Long.getLong("simulation.om.seeds", 1_000);
  private static final long FIRST_SEED = Long.getLong("simulation.om.seed", 1);
  private static final int THREADS = 2;

  @TempDir
  Path dir;

  @Test
  void everySeedMatchesASerialHistoryAndLeavesAConsistentBucket() throws Exception {
    SeedRuns.Report<NamespaceSimulation.Outcome> report = NamespaceSimulation.runSeeds(FIRST_SEED, SEEDS, THREADS,
        NONE, SystemClock.INSTANCE);
    System.out.printf("%d seeds in %.1f s (%.1f seeds/s), %d transactions committed%n", report.seeds(),
        report.took().toMillis() / 1e3, report.seedsPerSecond(), report.work());
    assertEquals(0, report.failed(), () -> report.failed() + " seeds failed, the first of them:\n"
        + report.firstFailures().stream().map(f -> f.failure().lines().findFirst().orElseThrow())
            .collect(Collectors.joining("\n")) + "\n\nthe first in full:\n" + report.firstFailures().get(0).failure());
    assertTrue(report.work() > SEEDS * 20, "too few transactions committed: " + report.work());
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  /**
   * OM HA's retry cache planted away: a call a deposed leader's batch applied runs again when its client sends
   * it again, and answers or changes what no serial history does.
   */
  @Test
  void aRetriedCallRunningAgainIsFoundAndItsSeedReplaysIt() throws Exception {
    SeedRuns.Report<NamespaceSimulation.Outcome> report = NamespaceSimulation.runSeeds(1, 40, THREADS,
        FORGETS_CALLS, SystemClock.INSTANCE);
    assertTrue(report.failed() > 0, "the planted flaw went unnoticed in " + report.seeds() + " seeds");
    NamespaceSimulation.Outcome found = report.firstFailures().get(0);
    System.out.println("found: " + found.failure().lines().findFirst().orElseThrow());
    assertTrue(found.leaderChanges() + found.restarts() > 0, found::failure);
    assertEquals(found, NamespaceSimulation.run(found.seed(), dir, FORGETS_CALLS));
  }

  /** Seed 12 runs a single OM, seed 11 an HA group whose leader changes. */
  @Test
  void aSeedReplaysAlike() throws Exception {
    NamespaceSimulation.Outcome single = NamespaceSimulation.run(12, dir, NONE);
    assertFalse(single.replicated());
    assertTrue(single.committed() > 0);
    assertEquals(single, NamespaceSimulation.run(12, dir, NONE));
    NamespaceSimulation.Outcome replicated = NamespaceSimulation.run(11, dir, NONE);
    assertTrue(replicated.replicated());
    assertTrue(replicated.leaderChanges() > 0);
    assertEquals(replicated, NamespaceSimulation.run(11, dir, NONE));
  }
}
