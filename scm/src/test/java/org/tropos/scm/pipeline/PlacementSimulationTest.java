package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tropos.common.util.SystemClock;

/** The acceptance bar of pipeline placement on simulated clusters (1,000-node runs are in tropos bench). */
class PlacementSimulationTest {
  private static PlacementSimulation.Result run(int nodes, int racks, int minDisks, int maxDisks, int limit) {
    return new PlacementSimulation(new PlacementSimulation.Spec(nodes, racks, minDisks, maxDisks,
        new PipelineLimits(limit, 2, 0), 7), SystemClock.INSTANCE).run();
  }

  @Test
  void equalNodesFillEvenlyOnTwoRacksWithLeadersSpread() {
    PlacementSimulation.Result r = run(12, 2, 2, 2, 3);
    assertEquals(12, r.ideal());
    assertEquals(12, r.pipelines());
    assertEquals(0, r.rackViolations());
    assertEquals(3, r.pipelinesPerNodeMin());
    assertEquals(3, r.pipelinesPerNodeMax());
    assertEquals(1, r.leadersPerNodeMin());
    assertEquals(1, r.leadersPerNodeMax());
  }

  @Test
  void largerClusterMeetsTheBar() {
    PlacementSimulation.Result r = run(300, 10, 4, 4, 5);
    assertEquals(0, r.rackViolations());
    assertTrue(r.pipelines() >= 0.99 * r.ideal(), r.toString());
    assertTrue(r.pipelinesPerNodeMax() - r.pipelinesPerNodeMin() <= 1, r.toString());
    assertTrue(r.leadersPerNodeMax() - r.leadersPerNodeMin() <= 1, r.toString());
  }

  @Test
  void unequalDisksUnderAutoLimitGetProportionalLoad() {
    PlacementSimulation.Result r = run(200, 8, 1, 12, 0);
    assertEquals(0, r.rackViolations());
    assertTrue(r.pipelines() >= 0.99 * r.ideal(), r.toString());
    assertTrue(r.proportionalToDisks(), r.toString());
  }
}
