package org.tropos.om.occ;

import java.util.concurrent.CompletableFuture;

/**
 * Where {@link OccRunner} hands a prepared transaction to be validated and committed: the {@link Committer}'s
 * thread in a serving OM, a {@link SteppedCommitter} in a simulation.
 */
@FunctionalInterface
public interface CommitQueue {
  /**
   * Queues a transaction; the future completes with its id once its changes are durable, or fails with
   * {@link Conflict} (to be re-run) or an {@link org.tropos.common.rpc.OmException}.
   */
  CompletableFuture<Long> submit(ReadSet reads, WriteSet writes) throws InterruptedException;
}
