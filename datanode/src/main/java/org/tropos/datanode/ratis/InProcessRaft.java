package org.tropos.datanode.ratis;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.tropos.common.rpc.LocalRaftServer;

/**
 * The datanode's Raft server as clients of its own JVM reach it ({@link org.tropos.common.rpc.InProcessServers}).
 * The message is taken as it is, not copied: the leader keeps a chunk's bytes past the reply (its log cache, for
 * followers that fall behind), so a writer hands over bytes it never changes again ({@code PipelineClient}).
 */
final class InProcessRaft implements LocalRaftServer {
  private final RaftServer server;
  private final Counter submitted;

  InProcessRaft(RaftServer server, MeterRegistry registry) {
    this.server = server;
    this.submitted = Counter.builder("datanode.raft.inprocess.requests").description("Client requests this"
        + " datanode's Raft server took from its own JVM, not through its port").register(registry);
  }

  @Override
  public boolean leads(RaftGroupId group) {
    try {
      return server.getDivision(group).getInfo().isLeaderReady();
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public CompletableFuture<RaftClientReply> write(RaftGroupId group, ClientId client, long callId, Message message) {
    RaftClientRequest request = RaftClientRequest.newBuilder().setClientId(client).setServerId(server.getId())
        .setGroupId(group).setCallId(callId).setType(RaftClientRequest.writeRequestType())
        .setMessage(message).build();
    submitted.increment();
    try {
      return server.submitClientRequestAsync(request);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
