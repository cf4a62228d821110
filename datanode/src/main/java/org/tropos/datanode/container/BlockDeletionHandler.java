package org.tropos.datanode.container;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Threads;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.DeleteBlocksCommand;
import org.tropos.proto.scm.DeleteBlocksTransaction;

/**
 * Carries out SCM's {@link DeleteBlocksCommand}s on a thread of its own, so the heartbeat never waits on the disk,
 * and keeps the acknowledgements until the next heartbeat takes them. A transaction that fails (a volume error), or
 * names a container this datanode does not hold, is not acknowledged, and SCM sends it again while the node holds,
 * or may come to hold, a replica (its replicas, and its pipeline's members while the container is written). Limits:
 * at most {@value #QUEUE_LIMIT} commands wait, and past that a command is dropped; at most {@value #ACK_LIMIT}
 * acknowledgements wait, and past that new ones are dropped. Either way SCM re-sends what it has not heard back
 * about, and a deletion carried out twice finds nothing the second time.
 *
 * <p>Thread-safety: the deletion thread adds acknowledgements and the heartbeat thread takes them, under this
 * object's monitor.
 */
public final class BlockDeletionHandler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockDeletionHandler.class);
  private static final int QUEUE_LIMIT = 100;
  private static final int ACK_LIMIT = 100_000;

  private final String nodeName;
  private final ContainerStore store;
  private final ExecutorService executor;
  /** Transaction ids carried out, per container, in the order they were done. */
  private final Map<Long, List<Long>> acks = new LinkedHashMap<>();
  private int ackCount;

  public BlockDeletionHandler(String nodeName, ContainerStore store) {
    this.nodeName = nodeName;
    this.store = store;
    this.executor = Threads.boundedPool(nodeName + "-block-deleting", 1, QUEUE_LIMIT);
  }

  /** Queues a command; returns at once. */
  public void submit(DeleteBlocksCommand command) {
    try {
      executor.execute(() -> execute(command));
    } catch (RejectedExecutionException e) {
      LOG.warn("{}: {} block deletion commands are queued; dropped one of {} transactions (SCM sends them again)",
          nodeName, QUEUE_LIMIT, command.getTransactionsCount());
    }
  }

  /**
   * Deletes each transaction's blocks and records its acknowledgement; on the deletion thread. A container's
   * transactions go together: one database write and one directory sync for all of them, not one per deleted key
   * (a fifth of the datanodes' CPU while small objects were overwritten).
   */
  void execute(DeleteBlocksCommand command) {
    Map<Long, List<DeleteBlocksTransaction>> byContainer = new LinkedHashMap<>();
    for (DeleteBlocksTransaction tx : command.getTransactionsList()) {
      byContainer.computeIfAbsent(tx.getContainerId(), c -> new ArrayList<>()).add(tx);
    }
    int blocks = 0;
    for (Map.Entry<Long, List<DeleteBlocksTransaction>> container : byContainer.entrySet()) {
      List<Long> localIds = container.getValue().stream().flatMap(tx -> tx.getLocalIdsList().stream()).toList();
      try {
        // A container not held here is not acknowledged: this node may be a member of its pipeline that has not
        // applied its first write yet, and applying it later would bring back blocks SCM then forgot.
        if (store.deleteBlocks(container.getKey(), localIds,
            container.getValue().stream().mapToLong(DeleteBlocksTransaction::getTxId).max().orElseThrow())) {
          container.getValue().forEach(this::acknowledge);
          blocks += localIds.size();
        }
      } catch (DatanodeException e) {
        LOG.warn("{}: cannot delete the blocks of {} deletion transactions in container {} (SCM sends them again): {}",
            nodeName, container.getValue().size(), container.getKey(), e.getMessage());
      }
    }
    LOG.debug("{}: deleted {} blocks of {} transactions", nodeName, blocks, command.getTransactionsCount());
  }

  private synchronized void acknowledge(DeleteBlocksTransaction tx) {
    if (ackCount == ACK_LIMIT) {
      LOG.warn("{}: {} deletion acknowledgements wait for a heartbeat; dropping the one of transaction {}",
          nodeName, ACK_LIMIT, tx.getTxId());
      return;
    }
    acks.computeIfAbsent(tx.getContainerId(), c -> new ArrayList<>()).add(tx.getTxId());
    ackCount++;
  }

  /** Takes the acknowledgements waiting for the next heartbeat. */
  public synchronized List<DeleteBlocksAck> takeAcks() {
    List<DeleteBlocksAck> taken = new ArrayList<>();
    acks.forEach((container, txIds) -> taken.add(DeleteBlocksAck.newBuilder().setContainerId(container)
        .addAllTxIds(txIds).build()));
    acks.clear();
    ackCount = 0;
    return taken;
  }

  @Override
  public void close() {
    Threads.shutdown(executor, Duration.ofSeconds(15));
  }
}
