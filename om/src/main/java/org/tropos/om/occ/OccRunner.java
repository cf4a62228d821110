package org.tropos.om.occ;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import org.tropos.common.db.ReadView;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.OmTable;
import org.tropos.proto.om.OmResult;

/**
 * Runs a request under optimistic concurrency (ARCHITECTURE.md, "OM"): read and execute on a snapshot, on the
 * caller's thread, in parallel with other requests; then validate and commit through the {@link Committer}. A
 * conflict re-runs the request from the start after a short random pause (so two requests that keep colliding
 * drift apart), at most {@code maxRetries} times, then fails with TOO_MANY_CONFLICTS.
 *
 * <p>Thread-safe.
 */
public final class OccRunner {
  private static final long BACKOFF_BASE_MICROS = 50;
  private static final long BACKOFF_MAX_MICROS = 5_000;

  /** A request's read and execute phases: reads and changes through {@link Txn}; may run several times. */
  @FunctionalInterface
  public interface Operation<T> {
    T execute(Txn txn) throws OmException;
  }

  private final OmDb db;
  private final ObjectIds ids;
  private final CommitQueue committer;
  private final Clock clock;
  private final int maxRetries;
  private final OccMetrics metrics;
  private final boolean recordCalls;

  /** A runner for a single OM: nothing is recorded for retried calls (a client never sends a call twice). */
  public OccRunner(OmDb db, ObjectIds ids, CommitQueue committer, Clock clock, int maxRetries, OccMetrics metrics) {
    this(db, ids, committer, clock, maxRetries, metrics, false);
  }

  /**
   * @param recordCalls whether the write transactions of client calls record their results (OM HA's retry cache,
   *     see {@link CallRecords}), so that a call sent again after a failover is answered from the record
   */
  public OccRunner(OmDb db, ObjectIds ids, CommitQueue committer, Clock clock, int maxRetries, OccMetrics metrics,
      boolean recordCalls) {
    this.db = db;
    this.ids = ids;
    this.committer = committer;
    this.clock = clock;
    this.maxRetries = maxRetries;
    this.metrics = metrics;
    this.recordCalls = recordCalls;
  }

  public <T> T run(String what, Operation<T> operation) throws OmException {
    long start = clock.monotonicNanos();
    // Numbered once per transaction, not per attempt: a re-run after a conflict is the same transaction.
    byte[] callKey = recordCalls ? CallScope.nextTransactionKey() : null;
    try {
      for (int attempt = 0; attempt <= maxRetries; attempt++) {
        if (attempt > 0) {
          metrics.retry();
          backOff(attempt);
        }
        Prepared<T> prepared = prepare(operation, callKey);
        if (commit(prepared)) {
          return prepared.result();
        }
      }
      metrics.gaveUp();
      throw new OmException(OmResult.TOO_MANY_CONFLICTS, what + " conflicted with concurrent changes "
          + (maxRetries + 1) + " times; try again");
    } finally {
      metrics.latency(clock.monotonicNanos() - start);
    }
  }

  /** One attempt's read and execute phases done: its result, and what it read and wants to change. */
  public static final class Prepared<T> {
    private final T result;
    private final Txn txn;

    private Prepared(T result, Txn txn) {
      this.result = result;
      this.txn = txn;
    }

    public T result() {
      return result;
    }
  }

  /** The read and execute phases of one attempt, on a fresh snapshot. {@link #run} is prepare + commit. */
  public <T> Prepared<T> prepare(Operation<T> operation) throws OmException {
    return prepare(operation, null);
  }

  /**
   * As above, for the transaction of a client call whose record (if any) is under {@code callKey}: a call sent
   * again finds its record and returns what the first attempt returned, changing nothing; otherwise a transaction
   * that changes something records its result with its changes.
   */
  @SuppressWarnings("unchecked")
  private <T> Prepared<T> prepare(Operation<T> operation, byte[] callKey) throws OmException {
    try (ReadView view = db.snapshot()) {
      Txn txn = new Txn(view, ids, clock);
      if (callKey != null) {
        Optional<CallRecords.Recorded> recorded = CallRecords.recorded(txn, callKey);
        if (recorded.isPresent()) {
          metrics.answerFromRecord();
          return new Prepared<>((T) recorded.get().result(), txn);
        }
      }
      T result = operation.execute(txn);
      if (callKey != null && !txn.writes().isEmpty()) {
        CallRecords.record(txn, callKey, result);
      }
      return new Prepared<>(result, txn);
    }
  }

  /**
   * Purges the records of client calls that started before {@code beforeWallMs} (OM HA's retry cache); returns
   * how many went.
   */
  public long purgeCallRecords(long beforeWallMs) throws OmException {
    long total = 0;
    for (int removed = CallRecords.purgeSome(this, beforeWallMs); removed > 0;
        removed = CallRecords.purgeSome(this, beforeWallMs)) {
      total += removed;
    }
    return total;
  }

  /**
   * Whether any of {@code keys} has a row in {@code table} now, read outside any transaction: advice that spares a
   * transaction where the answer is no (a snapshot and its bookkeeping cost more than a few point reads).
   */
  public boolean anyRow(OmTable table, Collection<byte[]> keys) throws OmException {
    try (ReadView view = db.latest()) {
      for (byte[] key : keys) {
        if (view.get(table.family(), key) != null) {
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, e.getMessage());
    }
  }

  /** Validates and commits a prepared attempt: true when committed (or nothing to write), false on a conflict. */
  public boolean commit(Prepared<?> prepared) throws OmException {
    Txn txn = prepared.txn;
    if (txn.writes().isEmpty()) {
      metrics.readOnly();
      return true;
    }
    try {
      committer.submit(txn.reads(), txn.writes()).get();
      metrics.commit();
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OmException(OmResult.OM_NOT_READY, "interrupted while committing");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Conflict) {
        metrics.conflict();
        return false;
      }
      if (e.getCause() instanceof OmException om) {
        throw om;
      }
      throw new OmException(OmResult.INTERNAL_ERROR, "commit failed: " + e.getCause());
    }
  }

  private void backOff(int attempt) throws OmException {
    long ceiling = Math.min(BACKOFF_MAX_MICROS, BACKOFF_BASE_MICROS << Math.min(attempt, 10));
    try {
      clock.pause(Duration.ofNanos(ThreadLocalRandom.current().nextLong(ceiling * 1000)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OmException(OmResult.OM_NOT_READY, "interrupted while retrying");
    }
  }
}
