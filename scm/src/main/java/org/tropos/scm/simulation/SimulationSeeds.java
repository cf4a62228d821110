package org.tropos.scm.simulation;

import java.io.IOException;
import java.nio.file.Path;
import org.tropos.common.io.FileTrees;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.util.Clock;
import org.tropos.scm.db.ScmDb;

/**
 * Runs a range of seeds of the {@link ControlPlaneSimulation} ({@link SeedRuns}), each thread on a database of
 * its own, emptied between seeds. Used by the tests' seed budget and by {@code tropos bench simulate}.
 */
public final class SimulationSeeds {
  private SimulationSeeds() {
  }

  /**
   * Runs seeds {@code first} to {@code first + count - 1} on {@code threads} threads; the report's work is the
   * blocks acknowledged.
   *
   * @param flaw a bug to plant; {@link PlantedFlaw#NONE} normally
   * @param clock times the whole (the runs have their own, simulated clocks)
   */
  public static SeedRuns.Report<ControlPlaneSimulation.Outcome> run(long first, long count, int threads,
      ControlPlaneSimulation.Schedule schedule, PlantedFlaw flaw, Clock clock) throws IOException {
    return SeedRuns.run(first, count, threads, () -> runner(schedule, flaw),
        ControlPlaneSimulation.Outcome::acknowledged, clock);
  }

  private static SeedRuns.Runner<ControlPlaneSimulation.Outcome> runner(ControlPlaneSimulation.Schedule schedule,
      PlantedFlaw flaw) throws IOException {
    Path dir = SeedRuns.scratchDirectory();
    ScmDb db;
    try {
      db = ScmDb.open(dir);
    } catch (IOException | RuntimeException e) {
      FileTrees.delete(dir);
      throw e;
    }
    return new SeedRuns.Runner<>() {
      @Override
      public ControlPlaneSimulation.Outcome run(long seed) throws IOException {
        return ControlPlaneSimulation.run(seed, db, schedule, flaw);
      }

      @Override
      public void close() throws IOException {
        try {
          db.close();
        } finally {
          FileTrees.delete(dir);
        }
      }
    };
  }
}
