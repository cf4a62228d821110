package org.tropos.om.ratis;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.om.db.OmDb;
import org.tropos.proto.om.db.JournalEntry;

/**
 * One OM's replica of the namespace under Raft: every committed log entry is a validated write set (a
 * {@link JournalEntry}, built by the leader's committer), applied to this OM's database without executing
 * anything. Deterministic: whether an entry applies depends only on the entry and the database, which every
 * replica holds alike at that point of the log. An entry that does not follow the database's last transaction (a
 * deposed leader validated it against an older state) is refused alike everywhere and changes nothing; an entry
 * already in the database (the log replayed after a restart: the database keeps the last log index it applied,
 * written with the changes) is skipped. An I/O error while applying stops this
 * member without advancing its applied index (fail-stop, as on the datanodes): it must not diverge.
 *
 * <p>Snapshots are RocksDB checkpoints ({@link OmSnapshots}), taken on this member's own state-machine thread so
 * that nothing is applied while one is written. A member whose database is behind its latest snapshot (one
 * installed from the leader, or a crash that lost unflushed writes after the log before the snapshot was purged)
 * loads the checkpoint into the database before applying anything.
 */
public final class OmStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(OmStateMachine.class);
  static final String APPLIED = "applied";
  static final String REFUSED = "refused: ";

  private final OmDb db;
  private final OmSnapshots snapshots = new OmSnapshots();

  public OmStateMachine(OmDb db) {
    this.db = db;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
    super.initialize(server, groupId, storage);
    snapshots.init(storage);
    getLifeCycle().transition(LifeCycle.State.STARTING);
    loadLatestSnapshotIfBehind();
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  @Override
  public OmSnapshots getStateMachineStorage() {
    return snapshots;
  }

  @Override
  public long takeSnapshot() throws IOException {
    TermIndex applied = getLastAppliedTermIndex();
    if (applied == null || applied.getIndex() <= 0) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    // Entries that are not write sets (a new term's first entry) leave the database's log index behind.
    db.recordLogIndex(applied.getIndex());
    OmSnapshots.Snapshot taken = snapshots.take(db, applied);
    LOG.info("Took a snapshot of the OM database at {}: {}", applied, taken.dir());
    return applied.getIndex();
  }

  @Override
  public void pause() {
    getLifeCycle().transition(LifeCycle.State.PAUSING);
    getLifeCycle().transition(LifeCycle.State.PAUSED);
  }

  /** After Ratis installed the leader's snapshot in the state-machine directory: load it into the database. */
  @Override
  public void reinitialize() throws IOException {
    getLifeCycle().transition(LifeCycle.State.STARTING);
    snapshots.changed();
    loadLatestSnapshotIfBehind();
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  private void loadLatestSnapshotIfBehind() throws IOException {
    Optional<OmSnapshots.Snapshot> latest = snapshots.latest();
    if (latest.isEmpty()) {
      return;
    }
    TermIndex at = latest.get().termIndex();
    if (db.installing() || db.lastLogIndex() < at.getIndex()) {
      LOG.info("Loading snapshot {} into the OM database (at log index {}{})", latest.get().dir(),
          db.lastLogIndex(), db.installing() ? ", an earlier load interrupted" : "");
      db.install(latest.get().dir(), at.getIndex());
    }
    if (getLastAppliedTermIndex() == null || getLastAppliedTermIndex().compareTo(at) < 0) {
      setLastAppliedTermIndex(at);
    }
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    String outcome;
    try {
      outcome = apply(JournalEntry.parseFrom(entry.getStateMachineLogEntry().getLogData().toByteArray()),
          entry.getIndex());
    } catch (InvalidProtocolBufferException e) {
      outcome = REFUSED + "not a write set: " + e.getMessage();
    } catch (IOException e) {
      throw new IllegalStateException("fail-stop: cannot apply log entry " + entry.getIndex() + " to the OM"
          + " database: " + e.getMessage(), e);
    }
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    return CompletableFuture.completedFuture(Message.valueOf(outcome));
  }

  private String apply(JournalEntry entry, long logIndex) throws IOException {
    if (logIndex <= db.lastLogIndex()) {
      return APPLIED;
    }
    if (entry.getPreviousTxId() != db.lastTxId()) {
      LOG.info("Refused a write set following transaction {}: this namespace is at {}", entry.getPreviousTxId(),
          db.lastTxId());
      return REFUSED + "it follows transaction " + entry.getPreviousTxId() + ", the namespace is at "
          + db.lastTxId();
    }
    db.applyCommitted(entry.toBuilder().setLogIndex(logIndex).build());
    return APPLIED;
  }

  static boolean applied(Message reply) {
    return reply.getContent().toString(StandardCharsets.UTF_8).equals(APPLIED);
  }
}
