package org.tropos.om.occ;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.tropos.common.http.PrometheusText;

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
  private final LongAdder answeredFromRecord = new LongAdder();
  private final LongAdder batches = new LongAdder();
  private final LongAdder followerReads = new LongAdder();
  private final Recorder batchSizes = new Recorder(3);
  private final Recorder latencyMicros = new Recorder(3);
  private final Histogram totalBatchSizes = new Histogram(3);
  private final Histogram totalLatencyMicros = new Histogram(3);

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

  void answerFromRecord() {
    answeredFromRecord.increment();
  }

  /** Calls sent again (after an OM failover) that were answered from the retry cache, applied once. */
  public long answeredFromRecord() {
    return answeredFromRecord.sum();
  }

  /** A read call this OM answered as a follower of its HA service. */
  public void followerRead() {
    followerReads.increment();
  }

  /** Read calls answered as a follower so far. */
  public long followerReads() {
    return followerReads.sum();
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

  /**
   * Everything in Prometheus text format, histograms as summaries since start (quantiles of request latency in
   * seconds and of group-commit batch sizes).
   */
  public synchronized String prometheus() {
    totalBatchSizes.add(batchSizes.getIntervalHistogram());
    totalLatencyMicros.add(latencyMicros.getIntervalHistogram());
    StringBuilder summaries = new StringBuilder();
    summary(summaries, "om_occ_batch_size", "Transactions per group commit.", totalBatchSizes, 1);
    summary(summaries, "om_request_latency_seconds", "Request latency, retries included.", totalLatencyMicros, 1e-6);
    return new PrometheusText()
        .counter("om_occ_commits_total", "Transactions committed.", commits.sum())
        .counter("om_occ_read_only_total", "Requests that changed nothing (no commit needed).", readOnly.sum())
        .counter("om_occ_conflicts_total", "Transactions refused by validation (re-run).", conflicts.sum())
        .counter("om_occ_retries_total", "Re-runs of requests after a conflict.", retries.sum())
        .counter("om_occ_gave_up_total", "Requests that failed with TOO_MANY_CONFLICTS.", gaveUp.sum())
        .counter("om_calls_answered_from_record_total", "Client calls sent again after a failover and answered"
            + " from the retry cache (applied once).", answeredFromRecord.sum())
        .counter("om_occ_batches_total", "Group commits (one WAL sync each).", batches.sum())
        .counter("om_follower_reads_total", "Read calls answered as a follower (OM HA, follower reads on).",
            followerReads.sum())
        .raw(summaries.toString()).toString();
  }

  private static void summary(StringBuilder out, String name, String help, Histogram h, double scale) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(" summary\n");
    for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
      out.append(String.format(Locale.ROOT, "%s{quantile=\"%s\"} %s%n", name, q,
          h.getTotalCount() == 0 ? "NaN" : Double.toString(h.getValueAtPercentile(q * 100) * scale)));
    }
    out.append(String.format(Locale.ROOT, "%s_count %d%n", name, h.getTotalCount()));
  }
}
