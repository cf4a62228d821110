package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.datanode.container.ClosedContainerRuns.Range;

class ClosedContainerRunsTest {
  @Test
  void aBatchIsCompactedAndMergedWithTheRunsAsLargeAsItself() {
    ClosedContainerRuns runs = new ClosedContainerRuns(2);
    assertEquals(List.of(), runs.leftOpen(1));
    assertEquals(List.of(new Range(1, 2)), runs.leftOpen(2));
    runs.leftOpen(4);
    assertEquals(List.of(new Range(3, 4), new Range(1, 4)), runs.leftOpen(3), "two runs of two make one of four");
    runs.leftOpen(5);
    assertEquals(List.of(new Range(5, 9)), runs.leftOpen(9), "smaller than the run before: kept apart");
    assertEquals(2, runs.runs());
  }

  @Test
  void runsStayLogarithmicInTheContainersClosed() {
    ClosedContainerRuns runs = new ClosedContainerRuns(16);
    long compactions = 0;
    for (long c = 1; c <= 100_000; c++) {
      compactions += runs.leftOpen(c).size();
    }
    assertTrue(runs.runs() <= 13, runs.runs() + " runs for 6,250 batches");
    assertTrue(compactions <= 2 * 100_000 / 16, compactions + " compactions");
  }
}
