package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ConcurrentOpsTest {
  private static final long MS = 1_000_000;

  @Test
  void slicesCombineIntoOneRunOverAllTheirOperationsTimeAndLatencies() {
    ConcurrentOps.Result fast = result(10, 1.0, 0, "", 1 * MS, 1 * MS, 1 * MS, 1 * MS, 1 * MS, 1 * MS, 1 * MS,
        1 * MS, 1 * MS, 1 * MS);
    ConcurrentOps.Result slow = result(10, 4.0, 2, "operation 3: refused", 3 * MS, 3 * MS, 3 * MS, 3 * MS, 3 * MS,
        3 * MS, 3 * MS, 3 * MS, 3 * MS, 80 * MS);
    ConcurrentOps.Result none = result(0, 0.5, 1, "operation 0: timed out");

    ConcurrentOps.Result all = ConcurrentOps.Result.combined(List.of(fast, slow, none));

    assertEquals(20, all.ops());
    assertEquals(5.5, all.seconds(), 1e-9);
    assertEquals(20 / 5.5, all.opsPerSec(), 1e-9);
    // Percentiles of the twenty latencies together, not an average of each slice's.
    assertEquals(1.0, all.p50Ms(), 0.01);
    assertEquals(80.0, all.p99Ms(), 0.1);
    assertEquals(80.0, all.maxMs(), 0.1);
    assertEquals(3, all.errors());
    assertEquals("operation 3: refused", all.firstError());
  }

  private static ConcurrentOps.Result result(long ops, double seconds, long errors, String firstError,
      long... latencies) {
    Histogram h = new Histogram(3);
    for (long l : latencies) {
      h.recordValue(l);
    }
    return new ConcurrentOps.Result(ops, seconds, ops / seconds, h.getValueAtPercentile(50) / 1e6,
        h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6, errors, firstError, h);
  }
}
