package org.tropos.om.occ;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters and histograms of optimistic concurrency: commits, conflicts (validation failures), retries, requests
 * that gave up, group-commit batch sizes and request latency.
 *
 * <p>Thread-safe: adders and HdrHistogram recorders.
 */
public final class OccMetrics {
  private final LongAdder commits = new LongAdder();
  private final LongAdder readOnly = new LongAdder();
  private final LongAdder conflicts = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder gaveUp = new LongAdder();
  private final LongAdder batches = new LongAdder();
  private final Recorder batchSizes = new Recorder(3);
  private final Recorder latencyMicros = new Recorder(3);

  void commit() {
    commits.increment();
  }

  void readOnly() {
    readOnly.increment();
  }

  void conflict() {
    conflicts.increment();
  }

  void retry() {
    retries.increment();
  }

  void gaveUp() {
    gaveUp.increment();
  }

  void batch(int size) {
    batches.increment();
    batchSizes.recordValue(size);
  }

  void latency(long nanos) {
    latencyMicros.recordValue(Math.max(1, TimeUnit.NANOSECONDS.toMicros(nanos)));
  }

  /** Validation failures so far (each re-runs its request). */
  public long conflicts() {
    return conflicts.sum();
  }

  /** A point-in-time copy; the histograms cover the time since the previous snapshot. */
  public Snapshot snapshot() {
    return new Snapshot(commits.sum(), readOnly.sum(), conflicts.sum(), retries.sum(), gaveUp.sum(), batches.sum(),
        batchSizes.getIntervalHistogram(), latencyMicros.getIntervalHistogram());
  }

  /** Counts since start; histograms since the previous snapshot. */
  public record Snapshot(long commits, long readOnly, long conflicts, long retries, long gaveUp, long batches,
      Histogram batchSizes, Histogram latencyMicros) {
  }
}
