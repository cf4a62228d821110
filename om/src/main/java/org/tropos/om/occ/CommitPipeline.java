package org.tropos.om.occ;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.db.ReadView;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.StaleWriteSetException;
import org.tropos.proto.om.OmResult;

/**
 * Batches validated and sent while earlier ones are still in flight (OM HA: a Raft round trip each). One
 * validator lives as long as batches are in flight, so a batch is validated against the database plus the
 * changes of the batches before it, and chains on the last of them. When a batch fails, the ones sent after it
 * fail too (they followed it; the log refuses them as stale, and their transactions re-run); no batch is taken
 * until they are all back, then validation starts again on the database as it is.
 */
final class CommitPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(CommitPipeline.class);
  /** Batches one validator may span before the pipeline drains and starts a fresh one (bounds its memory). */
  private static final int VALIDATOR_BATCHES = 256;
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final String name;
  private final OmDb db;
  private final BatchLog log;
  private final OccMetrics metrics;
  /** Called when a batch in flight completes (wakes the committer's thread). */
  private final Runnable wakeUp;

  private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
  private ReadView latest;
  private BatchValidator validator;
  private int validatorBatches;
  private boolean broken;

  /** A batch sent to the log and not yet applied. */
  private record InFlight(List<Pending> batch, long[] txIds, Exception[] refused, CompletableFuture<Void> applied) {
  }

  CommitPipeline(String name, OmDb db, BatchLog log, OccMetrics metrics, Runnable wakeUp) {
    this.name = name;
    this.db = db;
    this.log = log;
    this.metrics = metrics;
    this.wakeUp = wakeUp;
  }

  /** Whether no batch is in flight. */
  boolean idle() {
    return inFlight.isEmpty();
  }

  /** Marks the pipeline failed: no batch is taken until every batch in flight is back. */
  private void fail() {
    broken = true;
  }

  boolean canTakeBatch() {
    if (broken || inFlight.size() >= log.maxInFlight()) {
      return inFlight.isEmpty() && reset();
    }
    return validatorBatches < VALIDATOR_BATCHES || (inFlight.isEmpty() && reset());
  }

  /** Drops the validator (every batch is back): the next batch is validated against the database afresh. */
  boolean reset() {
    if (!inFlight.isEmpty()) {
      return false;
    }
    if (latest != null) {
      latest.close();
    }
    latest = null;
    validator = null;
    validatorBatches = 0;
    broken = false;
    return true;
  }

  /**
   * Validates {@code batch} and sends what it accepts to the log; a bug that throws fails the whole batch (its
   * callers are answered INTERNAL_ERROR) and the pipeline, which starts afresh once the batches in flight are back.
   */
  void send(List<Pending> batch) {
    try {
      validateAndSend(batch);
    } catch (RuntimeException e) {
      LOG.error("{}: commit failed unexpectedly", name, e);
      batch.forEach(p -> p.done().completeExceptionally(new OmException(OmResult.INTERNAL_ERROR,
          "commit failed: " + e)));
      fail();
    }
  }

  private void validateAndSend(List<Pending> batch) {
    if (inFlight.isEmpty()) {
      reset();
    }
    if (validator == null) {
      // The transaction first, then the view: the view is at least that state.
      long base = db.lastTxId();
      latest = db.latest();
      validator = new BatchValidator(latest, base);
    }
    long base = validator.lastTxId();
    int firstChange = validator.changes().size();
    long[] txIds = new long[batch.size()];
    Exception[] refused = new Exception[batch.size()];
    for (int i = 0; i < batch.size(); i++) {
      try {
        txIds[i] = validator.accept(batch.get(i).reads(), batch.get(i).writes());
      } catch (Conflict | OmException e) {
        refused[i] = e;
      }
    }
    validatorBatches++;
    metrics.batch(batch.size());
    List<OmDb.Change> changes = validator.changes().subList(firstChange, validator.changes().size());
    CompletableFuture<Void> applied = changes.isEmpty() ? CompletableFuture.completedFuture(null)
        : log.appendAsync(OmDb.writeSet(base, List.copyOf(changes), validator.lastTxId()));
    applied.whenComplete((ok, failure) -> wakeUp.run());
    inFlight.add(new InFlight(List.copyOf(batch), txIds, refused, applied));
    finishApplied();
  }

  /** Answers the callers of the oldest batches whose outcome is known, in order. */
  void finishApplied() {
    while (!inFlight.isEmpty() && inFlight.peekFirst().applied().isDone()) {
      finish(inFlight.pollFirst());
    }
  }

  void awaitOldest(long millis) throws InterruptedException {
    InFlight oldest = inFlight.peekFirst();
    if (oldest == null) {
      return;
    }
    try {
      oldest.applied().get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // Its outcome is read in finish().
    }
    finishApplied();
  }

  private void finish(InFlight done) {
    IOException failed = failureOf(done.applied());
    if (failed != null) {
      broken = true;
      logFailure(failed, done.batch().size());
    }
    for (int i = 0; i < done.batch().size(); i++) {
      CompletableFuture<Long> caller = done.batch().get(i).done();
      if (done.refused()[i] != null) {
        caller.completeExceptionally(done.refused()[i]);
      } else if (failed instanceof StaleWriteSetException) {
        caller.completeExceptionally(new Conflict("the namespace moved on before this batch was applied"));
      } else if (failed instanceof BatchLog.UnavailableException) {
        caller.completeExceptionally(new OmException(OmResult.OM_NOT_READY, failed.getMessage()));
      } else if (failed != null) {
        caller.completeExceptionally(new OmException(OmResult.INTERNAL_ERROR, "commit failed: "
            + failed.getMessage()));
      } else {
        caller.complete(done.txIds()[i]);
      }
    }
  }

  void close() {
    while (!inFlight.isEmpty()) {
      InFlight left = inFlight.pollFirst();
      try {
        left.applied().get(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException e) {
        // Reported to its callers below.
      }
      if (left.applied().isDone()) {
        finish(left);
      } else {
        left.batch().forEach(p -> p.done().completeExceptionally(new OmException(OmResult.OM_NOT_READY,
            "the OM stopped before the batch was applied")));
      }
    }
    reset();
  }

  private static IOException failureOf(CompletableFuture<Void> applied) {
    try {
      applied.getNow(null);
      return null;
    } catch (CompletionException | CancellationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return cause instanceof IOException io ? io : new IOException(cause.toString(), cause);
    }
  }

  private void logFailure(IOException failed, int size) {
    if (failed instanceof StaleWriteSetException) {
      LOG.debug("{}: a batch of {} transactions is re-run: {}", name, size, failed.getMessage());
    } else if (failed instanceof BatchLog.UnavailableException) {
      LOG.warn("{}: a batch of {} transactions was not taken: {}", name, size, failed.getMessage());
    } else {
      LOG.error("{}: cannot write a batch of {} transactions", name, size, failed);
    }
  }
}
