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
 * which validates the oldest of them as one batch and applies what it accepts through the database's journal, on
 * the caller's thread. A seeded simulation of the OM (issue 44) decides when a step runs and how many it takes,
 * so every interleaving of read phases and commits it explores is the same on every run of its seed.
 *
 * <p>Not thread-safe: the simulation runs one thing at a time.
 */
public final class SteppedCommitter implements CommitQueue {
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private final CommitPipeline pipeline;
  private boolean stopped;

  public SteppedCommitter(String name, OmDb db, OccMetrics metrics) {
    this.pipeline = new CommitPipeline(name, db, db::append, metrics, () -> { });
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
   * Validates and commits up to {@code max} of the oldest waiting transactions as one batch; returns their
   * futures in batch order, each complete.
   */
  public List<CompletableFuture<Long>> step(int max) {
    List<Pending> batch = new ArrayList<>();
    while (batch.size() < max && !queue.isEmpty()) {
      batch.add(queue.poll());
    }
    if (!batch.isEmpty()) {
      // The journal applies each batch before it returns, so nothing is in flight between steps and the pipeline
      // always takes a batch (after a failure or enough batches it starts a fresh validator first).
      if (!pipeline.canTakeBatch()) {
        throw new IllegalStateException("a batch is still in flight between steps");
      }
      pipeline.send(batch);
    }
    return batch.stream().map(Pending::done).toList();
  }

  /** Fails every waiting transaction, and those submitted later, as a stopping OM does (nothing validated). */
  public void stop() {
    stopped = true;
    Pending left;
    while ((left = queue.poll()) != null) {
      left.done().completeExceptionally(new OmException(OmResult.OM_NOT_READY, "the OM stopped"));
    }
    pipeline.close();
  }
}
