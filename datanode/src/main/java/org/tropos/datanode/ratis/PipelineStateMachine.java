package org.tropos.datanode.ratis;

import java.util.concurrent.CompletableFuture;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;

/**
 * The state machine of one pipeline's Raft group. For now it only applies entries in order (which is all Raft
 * needs to elect leaders and replicate); the data-path issue gives it containers, chunks and blocks.
 *
 * <p>Thread-safety: Ratis calls {@link #applyTransaction} on one thread per group, in log order.
 */
final class PipelineStateMachine extends BaseStateMachine {
  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    updateLastAppliedTermIndex(trx.getLogEntry().getTerm(), trx.getLogEntry().getIndex());
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    return CompletableFuture.completedFuture(Message.EMPTY);
  }
}
