package org.tropos.om.occ;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDb;
import org.tropos.proto.om.OmResult;

/**
 * The committer's serial step without its thread: transactions wait in a queue until the caller runs a step,
 * which validates the oldest of them as one batch and sends what it accepts to the log, on the caller's thread.
 * A seeded simulation of the OM (issue 44) decides when a step runs and how many it takes, and, with a log whose
 * entries wait for the simulation too (OM HA's Raft log), when each entry applies, so every interleaving of read
 * phases, commits and applies it explores is the same on every run of its seed.
 *
 * <p>Not thread-safe: the simulation runs one thing at a time.
 */
public final class SteppedCommitter implements CommitQueue {
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private final CommitPipeline pipeline;
  private boolean stopped;

  /** Batches go through the database's journal: each is applied before its step returns (a single OM). */
  public SteppedCommitter(String name, OmDb db, OccMetrics metrics) {
    this(name, db, db::append, metrics);
  }

  /** Batches go to {@code log}; up to its {@link BatchLog#maxInFlight} wait there between steps. */
  public SteppedCommitter(String name, OmDb db, BatchLog log, OccMetrics metrics) {
    this.pipeline = new CommitPipeline(name, db, log, metrics, () -> { });
  }

  @Override
  public CompletableFuture<Long> submit(ReadSet reads, WriteSet writes) {
    CompletableFuture<Long> done = new CompletableFuture<>();
    if (stopped) {
      done.completeExceptionally(new OmException(OmResult.OM_NOT_READY, "the OM is stopping"));
    } else {
      queue.add(new Pending(reads, writes, done));
    }
    return done;
  }

  /** How many transactions wait for a step. */
  public int waiting() {
    return queue.size();
  }

  /**
   * Whether a step would take a batch: transactions wait and the log has room for one more in flight (after a
   * failure, once every batch in flight is back). With the journal every batch is applied within its step, so
   * the log always has room.
   */
  public boolean canStep() {
    return !queue.isEmpty() && pipeline.canTakeBatch();
  }

  /**
   * Validates up to {@code max} of the oldest waiting transactions as one batch and sends what it accepts to the
   * log; returns their futures in batch order, complete once the log applied the batch (at once with the journal)
   * and {@link #finishApplied} ran. Empty when {@link #canStep} is false.
   */
  public List<CompletableFuture<Long>> step(int max) {
    if (!canStep()) {
      return List.of();
    }
    List<Pending> batch = new ArrayList<>();
    while (batch.size() < max && !queue.isEmpty()) {
      batch.add(queue.poll());
    }
    pipeline.send(batch);
    return batch.stream().map(Pending::done).toList();
  }

  /** Answers the transactions of the oldest batches the log has applied or failed since, in order. */
  public void finishApplied() {
    pipeline.finishApplied();
  }

  /**
   * Fails every waiting transaction, and those submitted later, as a stopping OM does (nothing validated), and
   * answers those of the batches in flight: the log must have completed them first (a stepped log does not
   * complete them while this waits).
   */
  public void stop() {
    stopped = true;
    Pending left;
    while ((left = queue.poll()) != null) {
      left.done().completeExceptionally(new OmException(OmResult.OM_NOT_READY, "the OM stopped"));
    }
    pipeline.close();
  }
}
