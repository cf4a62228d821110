package org.tropos.om.ratis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.tropos.om.db.StaleWriteSetException;
import org.tropos.om.occ.BatchLog;
import org.tropos.proto.om.db.JournalEntry;

/**
 * The committer's batches go through the OMs' Raft group: one log entry per batch (group commit across the log),
 * answered once the leader's {@link OmStateMachine} has applied it, so the caller sees its own write at once.
 */
public final class RatisBatchLog implements BatchLog {
  /** Hands a log entry to the group and returns its reply. */
  @FunctionalInterface
  public interface Submitter {
    RaftClientReply submit(Message entry) throws IOException;
  }

  private final Submitter submitter;

  /** Through {@code client}, to whichever OM leads (tests propose from any member). */
  public RatisBatchLog(RaftClient client) {
    this(entry -> client.io().send(entry));
  }

  /** Through {@code submitter}: the leader's daemon submits to its own Raft server ({@link OmRaftServer#submitter}). */
  public RatisBatchLog(Submitter submitter) {
    this.submitter = submitter;
  }

  @Override
  public void append(JournalEntry entry) throws IOException {
    RaftClientReply reply;
    try {
      reply = submitter.submit(Message.valueOf(ByteString.copyFrom(entry.toByteArray())));
    } catch (IOException e) {
      throw new UnavailableException("the OMs' Raft group did not take the batch: " + e.getMessage(), e);
    }
    if (!reply.isSuccess()) {
      throw new UnavailableException("the OMs' Raft group did not commit the batch: " + reply.getException(),
          reply.getException());
    }
    if (!OmStateMachine.applied(reply.getMessage())) {
      throw new StaleWriteSetException("the batch was "
          + reply.getMessage().getContent().toString(StandardCharsets.UTF_8));
    }
  }
}
