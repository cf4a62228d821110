package org.tropos.om.ratis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.ratis.RaftMember;
import org.tropos.om.db.StaleWriteSetException;
import org.tropos.om.occ.BatchLog;
import org.tropos.proto.om.db.JournalEntry;

/**
 * The committer's batches go through the OMs' Raft group: one log entry per batch (group commit across the log),
 * answered once the leader's {@link OmStateMachine} has applied it, so the caller sees its own write at once.
 */
public final class RatisBatchLog implements BatchLog {
  /**
   * Batches sent before the first of them has come back. Two: while one is out, the next gathers what arrives and
   * goes as soon as there is room, so a round trip is always in progress; more in flight makes each entry smaller,
   * and an entry costs the three members a log write, a sync and sends whatever it carries. Measured with 8, 64
   * and 256 threads creating files (docs/benchmarks.md): 1 or 2 in flight did best at 8 and 64, 2 or 4 at 256;
   * 8, the earlier setting, 10-40 % fewer creates at 8 and 64.
   */
  public static final int IN_FLIGHT = 2;

  private final RaftMember.Submitter submitter;

  /** Through {@code client}, to whichever OM leads (tests propose from any member). */
  public RatisBatchLog(RaftClient client) {
    this(entry -> client.async().send(entry));
  }

  /** Through {@code submitter}: the leader's daemon submits to its own Raft server ({@link OmRaftServer#submitter}). */
  public RatisBatchLog(RaftMember.Submitter submitter) {
    this.submitter = submitter;
  }

  @Override
  public void append(JournalEntry entry) throws IOException {
    try {
      appendAsync(entry).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnavailableException("interrupted while the OMs' Raft group commits a batch", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }

  @Override
  public CompletableFuture<Void> appendAsync(JournalEntry entry) {
    try {
      FaultPoints.hit(FaultPoints.RAFT_SUBMIT);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(new UnavailableException("the OMs' Raft group did not take the batch: "
          + e.getMessage(), e));
    }
    return submitter.submit(Message.valueOf(ByteString.copyFrom(entry.toByteArray()))).handle((reply, failure) -> {
      if (failure != null) {
        throw new CompletionException(new UnavailableException("the OMs' Raft group did not take the batch: "
            + failure, failure));
      }
      if (!reply.isSuccess()) {
        throw new CompletionException(new UnavailableException("the OMs' Raft group did not commit the batch: "
            + reply.getException(), reply.getException()));
      }
      if (!OmStateMachine.applied(reply.getMessage())) {
        throw new CompletionException(new StaleWriteSetException("the batch was "
            + reply.getMessage().getContent().toString(StandardCharsets.UTF_8)));
      }
      return null;
    });
  }

  @Override
  public int maxInFlight() {
    return IN_FLIGHT;
  }
}
