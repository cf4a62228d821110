package org.tropos.scm.ratis;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.tropos.common.ratis.CheckpointStateMachine;
import org.tropos.proto.scm.db.ScmWriteSet;
import org.tropos.scm.db.ScmDb;

/**
 * One SCM's replica of the cluster's state under Raft: every committed log entry is a set of whole rows the
 * leader wrote ({@link ScmWriteSet}), applied to this SCM's database as it is. Deterministic: the rows do not
 * depend on anything but the entry. An entry this database already holds (the log replayed after a restart) is
 * skipped; an I/O error while applying stops this member without advancing its applied index (fail-stop): it
 * must not diverge. Snapshots are RocksDB checkpoints of the database ({@link CheckpointStateMachine}).
 */
public final class ScmStateMachine extends CheckpointStateMachine {
  private final ScmDb db;

  public ScmStateMachine(ScmDb db) {
    super("the SCM database", db);
    this.db = db;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    try {
      db.applyReplicated(ScmWriteSet.parseFrom(entry.getStateMachineLogEntry().getLogData().toByteArray()),
          entry.getIndex());
    } catch (InvalidProtocolBufferException e) {
      // Only this process's leader writes entries, so none can be unreadable unless the log is damaged.
      throw new IllegalStateException("fail-stop: log entry " + entry.getIndex() + " is not an SCM write set", e);
    } catch (IOException e) {
      throw new IllegalStateException("fail-stop: cannot apply log entry " + entry.getIndex() + " to the SCM"
          + " database: " + e.getMessage(), e);
    }
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    return CompletableFuture.completedFuture(Message.EMPTY);
  }
}
