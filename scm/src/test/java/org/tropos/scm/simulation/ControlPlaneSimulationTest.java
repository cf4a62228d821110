package org.tropos.scm.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tropos.common.io.FileTrees;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.util.SystemClock;
import org.tropos.scm.db.ScmDb;

/**
 * SCM's control plane under the seeded simulation: a budget of seeds must keep every invariant and heal; a bug
 * planted on purpose must be found within that budget; and a seed must replay exactly, so that a failing one can
 * be studied. {@code -Dsimulation.seeds=N} and {@code -Dsimulation.seed=S} move the budget.
 */
class ControlPlaneSimulationTest {
  private static final long SEEDS = Long.getLong("simulation.seeds", 10_000);
  private static final long FIRST_SEED = Long.getLong("simulation.seed", 1);
  private static final int THREADS = 2;

  @Test
  void everySeedKeepsTheInvariantsAndHeals() throws Exception {
    SeedRuns.Report<ControlPlaneSimulation.Outcome> report = SimulationSeeds.run(FIRST_SEED, SEEDS, THREADS,
        ControlPlaneSimulation.Schedule.DEFAULT, PlantedFlaw.NONE, SystemClock.INSTANCE);
    System.out.printf("Control plane: %d seeds in %.1f s (%.0f seeds/s), %d acknowledged blocks, %d failed%n",
        report.seeds(), report.took().toMillis() / 1e3, report.seedsPerSecond(), report.work(),
        report.failed());
    assertEquals(SEEDS, report.seeds());
    assertEquals(0, report.failed(), () -> report.failed() + " seeds failed, the first of them:\n"
        + report.firstFailures().stream().map(f -> f.failure().lines().findFirst().orElseThrow())
            .collect(Collectors.joining("\n")) + "\n\nthe first in full:\n" + report.firstFailures().get(0).failure());
  }

  /** A replica found damaged that a close entry closes anyway counts as a sound copy: found, and replayed. */
  @Test
  void aPlantedFlawIsFoundWithinTheBudgetAndItsSeedReplaysIt() throws Exception {
    SeedRuns.Report<ControlPlaneSimulation.Outcome> report = SimulationSeeds.run(FIRST_SEED, Math.min(SEEDS, 1000), THREADS,
        ControlPlaneSimulation.Schedule.DEFAULT, PlantedFlaw.CLOSES_DAMAGED, SystemClock.INSTANCE);
    assertTrue(report.failed() > 0, "the planted flaw went unnoticed in " + report.seeds() + " seeds");
    ControlPlaneSimulation.Outcome found = report.firstFailures().get(0);
    assertTrue(found.failure().contains("was found damaged and is CLOSED"), found.failure());
    assertEquals(found, runAlone(found.seed(), PlantedFlaw.CLOSES_DAMAGED), "replayed from its seed");
  }

  @Test
  void aSeedReplaysExactly() throws Exception {
    ControlPlaneSimulation.Outcome first = runAlone(7, PlantedFlaw.NONE);
    assertTrue(first.acknowledged() > 0);
    assertEquals(first, runAlone(7, PlantedFlaw.NONE));
  }

  private static ControlPlaneSimulation.Outcome runAlone(long seed, PlantedFlaw flaw) throws Exception {
    Path dir = SeedRuns.scratchDirectory();
    try (ScmDb db = ScmDb.open(dir)) {
      return ControlPlaneSimulation.run(seed, db, ControlPlaneSimulation.Schedule.DEFAULT, flaw);
    } finally {
      FileTrees.delete(dir);
    }
  }
}
