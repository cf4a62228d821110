package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.tropos.common.net.HostPort;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.util.Threads;

/**
 * The floor Apache Ratis sets on this machine for OM HA: a group of three members in this process, set up as the
 * OMs' ({@link RaftMember}), whose state machine does nothing. An entry of the size of a small write set is
 * submitted to the leader in-process and waited for, as the OM's committer does; what it costs is Ratis's alone
 * (log writes and syncs on three members, gRPC between them, the hand-offs between their threads).
 */
final class RaftFloor implements AutoCloseable {
  /** About a write set of one create. */
  private static final Message ENTRY = Message.valueOf("x".repeat(512));

  private final List<RaftMember> members;
  private final RaftMember.Submitter leader;

  private RaftFloor(List<RaftMember> members, RaftMember.Submitter leader) {
    this.members = members;
    this.leader = leader;
  }

  /** Three members with their logs under {@code dir}, started; returns once one leads. */
  static RaftFloor start(Path dir) throws Exception {
    Map<String, HostPort> peers = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      peers.put("m" + i, new HostPort("127.0.0.1", OmTarget.freePort()));
    }
    List<RaftMember> members = new ArrayList<>();
    try {
      for (String id : peers.keySet()) {
        RaftMember member = new RaftMember("floor", "floor", peers, id, dir.resolve(id), new NothingStateMachine(),
            properties -> { });
        members.add(member);
        member.start();
      }
      RaftMember[] found = {null};
      Threads.awaitCondition("a Raft leader", Duration.ofSeconds(30), Duration.ofMillis(20), () -> {
        for (RaftMember m : members) {
          if (m.isReadyLeader()) {
            found[0] = m;
          }
        }
        return found[0] != null;
      });
      return new RaftFloor(members, found[0].submitter());
    } catch (Exception e) {
      closeAll(members);
      throw e;
    }
  }

  /** Submits one entry to the leader; returns once it is committed and applied there. */
  void commit() throws Exception {
    RaftClientReply reply = leader.submit(ENTRY).get();
    if (!reply.isSuccess()) {
      throw new IOException("the Raft group did not commit an entry: " + reply.getException());
    }
  }

  private static void closeAll(List<RaftMember> members) throws IOException {
    for (RaftMember m : members) {
      m.close();
    }
  }

  @Override
  public void close() throws IOException {
    closeAll(members);
  }

  /** Applies nothing: only the log position moves. */
  private static final class NothingStateMachine extends BaseStateMachine {
    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
      LogEntryProto entry = trx.getLogEntry();
      updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
      return CompletableFuture.completedFuture(Message.EMPTY);
    }
  }
}
