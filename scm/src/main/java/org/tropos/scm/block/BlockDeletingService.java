package org.tropos.scm.block;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.util.Clock;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.DeleteBlocksCommand;
import org.tropos.proto.scm.DeleteBlocksTransaction;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.db.DeletedBlocksRecord;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeManager;

/**
 * Sends the transactions of the {@link DeletedBlockLog} to the datanodes holding their containers, and removes a
 * transaction from the log once every holder has acknowledged it. Each {@link #run()}:
 * <ol>
 * <li>removes the transactions every current holder of their container has acknowledged, telling the container
 * manager first ({@link DeletionsDone});</li>
 * <li>reads the log on from where the last run stopped (starting over at its end) and sends each transaction to
 * each holder that has not acknowledged it and was not sent it within {@code resendAfter}: one
 * {@link DeleteBlocksCommand} per datanode and run, with at most {@code perIntervalMax} blocks in all.</li>
 * </ol>
 * A transaction is first sent only when every holder is HEALTHY: it can leave the log only once all of them have
 * acknowledged it, and waiting keeps what SCM tracks small. What SCM knows of a transaction is dropped when a holder
 * that has not acknowledged it goes DEAD; it is sent again, to every holder, once they are all HEALTHY. A DEAD
 * node's replicas leave their containers' holders (replication makes new ones, which are holders like any other).
 * Acknowledgements are kept in memory only: after a restart SCM sends every transaction again
 * and the datanodes, finding nothing left to delete, acknowledge it at once.
 *
 * <p>Thread-safety: all state is guarded by this object's monitor; runs come from SCM's scheduler, acknowledgements
 * from heartbeat handlers. Lock order: this, then the container manager's, the node manager's, the command queue's.
 */
public final class BlockDeletingService {
  private static final Logger LOG = LoggerFactory.getLogger(BlockDeletingService.class);

  private final DeletedBlockLog log;
  private final LongFunction<Optional<Map<UUID, Long>>> replicaHolders;
  private final DeletionsDone deletionsDone;
  private final NodeManager nodes;
  private final CommandQueue commands;
  private final Clock clock;
  private final BlockDeletionConfig config;
  private final long resendAfterMs;
  /** Transactions sent and not yet acknowledged by every holder, by id; at most perIntervalMax. */
  private final Map<Long, DeletionProgress> progress = new HashMap<>();
  /** The transaction id the next run reads the log from. */
  private long cursor;

  /** Told of each transaction every holder of its container carried out, before it leaves the log. */
  @FunctionalInterface
  public interface DeletionsDone {
    void done(long containerId, long txId);
  }

  /**
   * @param replicaHolders the datanodes holding a container's replicas, each with its replica's incarnation (0 if
   *     none reported yet); empty for a container SCM does not know
   */
  public BlockDeletingService(DeletedBlockLog log, LongFunction<Optional<Map<UUID, Long>>> replicaHolders,
      DeletionsDone deletionsDone, NodeManager nodes, CommandQueue commands, Clock clock,
      BlockDeletionConfig config) {
    this.log = log;
    this.replicaHolders = replicaHolders;
    this.deletionsDone = deletionsDone;
    this.nodes = nodes;
    this.commands = commands;
    this.clock = clock;
    this.config = config;
    this.resendAfterMs = config.resendAfter().toMillis();
  }

  /** One round: removes finished transactions, then sends what is due. */
  public synchronized void run() {
    Round round = new Round(clock.monotonicMillis());
    try {
      removeFinished(round);
      Map<UUID, DeleteBlocksCommand.Builder> out = dispatch(round);
      out.forEach((datanode, command) -> commands.add(datanode,
          ScmCommand.newBuilder().setDeleteBlocks(command).build()));
      if (!out.isEmpty()) {
        LOG.debug("Sent deletions to {} datanodes; {} transactions awaiting acknowledgement", out.size(),
            progress.size());
      }
    } catch (IOException e) {
      LOG.warn("Block deletion failed to read or update SCM's deleted-block log; trying again in {}: {}",
          config.interval(), e.toString());
    }
  }

  /**
   * Records that {@code datanode} carried out these transactions, on the replica it holds now: should that replica
   * go and another come (a copy, or its pipeline's log replayed onto an emptied disk), the new one must carry them
   * out again.
   */
  public synchronized void acknowledged(UUID datanode, List<DeleteBlocksAck> acks) {
    for (DeleteBlocksAck ack : acks) {
      long incarnation = replicaHolders.apply(ack.getContainerId()).map(h -> h.getOrDefault(datanode, 0L))
          .orElse(0L);
      for (long txId : ack.getTxIdsList()) {
        DeletionProgress p = progress.get(txId);
        if (p != null && p.containerId() == ack.getContainerId()) {
          p.acknowledge(datanode, incarnation);
        }
      }
    }
  }

  /** Transactions sent and awaiting acknowledgement (for tests and metrics). */
  public synchronized int inFlight() {
    return progress.size();
  }

  private void removeFinished(Round round) throws IOException {
    // A STALE node (or one not heard since SCM started) may hold replicas SCM does not count yet: nothing finishes
    // without it until it reports them or is DEAD (when its replicas are remembered as departed).
    if (round.states.containsValue(NodeState.STALE)) {
      return;
    }
    List<Long> done = new ArrayList<>();
    for (Iterator<Map.Entry<Long, DeletionProgress>> it = progress.entrySet().iterator(); it.hasNext();) {
      Map.Entry<Long, DeletionProgress> e = it.next();
      DeletionProgress p = e.getValue();
      Optional<Map<UUID, Long>> holders = round.holders(p.containerId());
      if (holders.isEmpty() || p.acknowledgedByAll(holders.get())) {
        if (holders.isPresent()) {
          deletionsDone.done(p.containerId(), e.getKey());
        }
        done.add(e.getKey());
        it.remove();
      } else if (holders.get().entrySet().stream().anyMatch(h -> !p.acknowledgedBy(h.getKey(), h.getValue())
          && round.state(h.getKey()) == NodeState.DEAD)) {
        it.remove();
      }
    }
    log.remove(done);
  }

  private Map<UUID, DeleteBlocksCommand.Builder> dispatch(Round round) throws IOException {
    Map<UUID, DeleteBlocksCommand.Builder> out = new LinkedHashMap<>();
    int limit = config.perIntervalMax();
    List<DeletedBlocksRecord> rows = log.read(cursor, limit);
    long next = rows.size() < limit ? 0 : rows.get(rows.size() - 1).getTxId() + 1;
    List<Long> unknown = new ArrayList<>();
    int budget = limit;
    for (DeletedBlocksRecord row : rows) {
      if (row.getLocalIdsCount() > budget && budget < limit) {
        next = row.getTxId();
        break;
      }
      budget -= send(row, round, out, unknown);
    }
    cursor = next;
    log.remove(unknown);
    return out;
  }

  /** Adds the transaction to the command of each holder it is due for; returns the blocks sent (0 if none). */
  private int send(DeletedBlocksRecord row, Round round, Map<UUID, DeleteBlocksCommand.Builder> out,
      List<Long> unknown) {
    Optional<Map<UUID, Long>> found = round.holders(row.getContainerId());
    if (found.isEmpty()) {
      LOG.warn("Deleted-blocks transaction {} (key {}) names container {}, which SCM does not know: nothing to delete",
          row.getTxId(), row.getKeyId(), row.getContainerId());
      unknown.add(row.getTxId());
      return 0;
    }
    Map<UUID, Long> holders = found.get();
    DeletionProgress p = progress.get(row.getTxId());
    if (p == null) {
      if (progress.size() >= config.perIntervalMax()
          || !holders.keySet().stream().allMatch(h -> round.state(h) == NodeState.HEALTHY)) {
        return 0;
      }
      p = new DeletionProgress(row.getContainerId());
      progress.put(row.getTxId(), p);
    }
    DeletionProgress tracked = p;
    List<UUID> targets = holders.keySet().stream().filter(h -> !tracked.acknowledgedBy(h, holders.get(h))
        && round.state(h) == NodeState.HEALTHY && tracked.due(h, round.now, resendAfterMs)).toList();
    if (targets.isEmpty() || p.gaveUp() || !countResend(row, p, targets)) {
      return 0;
    }
    DeleteBlocksTransaction tx = DeleteBlocksTransaction.newBuilder().setTxId(row.getTxId())
        .setContainerId(row.getContainerId()).addAllLocalIds(row.getLocalIdsList()).build();
    for (UUID target : targets) {
      out.computeIfAbsent(target, t -> DeleteBlocksCommand.newBuilder()).addTransactions(tx);
      p.sent(target, round.now);
    }
    return row.getLocalIdsCount();
  }

  /** False once a transaction was re-sent more than maxRetry times: SCM stops sending it until it restarts. */
  private boolean countResend(DeletedBlocksRecord row, DeletionProgress p, List<UUID> targets) {
    if (targets.stream().noneMatch(p::wasSentTo) || p.countResend(config.maxRetry())) {
      return true;
    }
    LOG.error("Deleted-blocks transaction {} (container {}, key {}) was sent {} times and some replicas never"
        + " acknowledged it; SCM stops sending it until it restarts ({} = {})", row.getTxId(), row.getContainerId(),
        row.getKeyId(), config.maxRetry() + 1, ScmKeys.BLOCK_DELETION_MAX_RETRY.name(), config.maxRetry());
    return false;
  }

  /** What one run reads once: the time, the nodes' states and the holders of each container it meets. */
  private final class Round {
    final long now;
    private final Map<UUID, NodeState> states = new HashMap<>();
    private final Map<Long, Optional<Map<UUID, Long>>> holders = new HashMap<>();

    Round(long now) {
      this.now = now;
      nodes.nodes().forEach(n -> states.put(n.id(), n.state()));
    }

    NodeState state(UUID datanode) {
      return states.getOrDefault(datanode, NodeState.NODE_STATE_UNSPECIFIED);
    }

    Optional<Map<UUID, Long>> holders(long containerId) {
      return holders.computeIfAbsent(containerId, replicaHolders::apply);
    }
  }
}
