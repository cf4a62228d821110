package org.tropos.om.occ;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.tropos.common.metrics.Latency;

/**
 * Counters and histograms of optimistic concurrency: commits, conflicts (validation failures), retries, requests
 * that gave up, group-commit batch sizes and request latency, in the OM's meter registry ({@code /prom}).
 */
public final class OccMetrics {
  private final Counter commits;
  private final Counter readOnly;
  private final Counter conflicts;
  private final Counter retries;
  private final Counter gaveUp;
  private final Counter answeredFromRecord;
  private final Counter followerReads;
  private final DistributionSummary batchSizes;
  private final Timer latency;

  /** Counted but not exported (tests of the OCC core). */
  public OccMetrics() {
    this(new SimpleMeterRegistry());
  }

  public OccMetrics(MeterRegistry registry) {
    commits = Counter.builder("om.occ.commits").description("Transactions committed.").register(registry);
    readOnly = Counter.builder("om.occ.read.only").description("Requests that changed nothing (no commit needed).")
        .register(registry);
    conflicts = Counter.builder("om.occ.conflicts").description("Transactions refused by validation (re-run).")
        .register(registry);
    retries = Counter.builder("om.occ.retries").description("Re-runs of requests after a conflict.")
        .register(registry);
    gaveUp = Counter.builder("om.occ.gave.up").description("Requests that failed with TOO_MANY_CONFLICTS.")
        .register(registry);
    answeredFromRecord = Counter.builder("om.calls.answered.from.record").description("Client calls sent again"
        + " after a failover and answered from the retry cache (applied once).").register(registry);
    followerReads = Counter.builder("om.follower.reads").description("Read calls answered as a follower (OM HA,"
        + " follower reads on).").register(registry);
    batchSizes = DistributionSummary.builder("om.occ.batch.size").description("Transactions per group commit (one"
        + " WAL sync each).").serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256).register(registry);
    latency = Latency.timer("om.request.latency", "Namespace requests from their start to their commit, retries"
        + " included.").register(registry);
  }

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
    return (long) answeredFromRecord.count();
  }

  /** A read call this OM answered as a follower of its HA service. */
  public void followerRead() {
    followerReads.increment();
  }

  /** Read calls answered as a follower so far. */
  public long followerReads() {
    return (long) followerReads.count();
  }

  void batch(int size) {
    batchSizes.record(size);
  }

  void latency(long nanos) {
    latency.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Transactions committed so far. */
  public long commits() {
    return (long) commits.count();
  }

  /** Validation failures so far (each re-runs its request). */
  public long conflicts() {
    return (long) conflicts.count();
  }

  /** Re-runs after conflicts so far. */
  public long retries() {
    return (long) retries.count();
  }
}
