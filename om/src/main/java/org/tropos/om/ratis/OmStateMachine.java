package org.tropos.om.ratis;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ratis.CheckpointStateMachine;
import org.tropos.om.db.OmDb;
import org.tropos.proto.om.db.JournalEntry;

/**
 * One OM's replica of the namespace under Raft: every committed log entry is a validated write set (a
 * {@link JournalEntry}, built by the leader's committer), applied to this OM's database without executing
 * anything. Deterministic: whether an entry applies depends only on the entry and the database, which every
 * replica holds alike at that point of the log. An entry that does not follow the database's last transaction (a
 * deposed leader validated it against an older state) is refused alike everywhere and changes nothing; an entry
 * already in the database (the log replayed after a restart: the database keeps the last log index it applied,
 * written with the changes) is skipped. An I/O error while applying stops this member without advancing its
 * applied index (fail-stop, as on the datanodes): it must not diverge.
 *
 * <p>Snapshots are RocksDB checkpoints of the database ({@link CheckpointStateMachine}).
 */
public final class OmStateMachine extends CheckpointStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(OmStateMachine.class);
  public static final String APPLIED = "applied";
  static final String REFUSED = "refused: ";

  private final OmDb db;

  public OmStateMachine(OmDb db) {
    super("the OM database", db);
    this.db = db;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    String outcome;
    try {
      outcome = apply(db, JournalEntry.parseFrom(entry.getStateMachineLogEntry().getLogData().toByteArray()),
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

  /**
   * Applies the write set at Raft log index {@code logIndex} to {@code db}, as every member does (the OM
   * simulation's log too): {@value #APPLIED}, or why it was refused; an I/O error leaves the database as it was.
   */
  public static String apply(OmDb db, JournalEntry entry, long logIndex) throws IOException {
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

  /** A read barrier's query ({@code RaftMember.readBarrier}): the OM then reads its database itself. */
  @Override
  public CompletableFuture<Message> query(Message request) {
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  static boolean applied(Message reply) {
    return reply.getContent().toString(StandardCharsets.UTF_8).equals(APPLIED);
  }
}
