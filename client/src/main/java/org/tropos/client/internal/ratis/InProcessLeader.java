package org.tropos.client.internal.ratis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.LocalRaftServer;

/**
 * A pipeline's leader when it is a Raft server of this JVM ({@link InProcessServers}): in {@code tropos local} the
 * S3 gateway's writes reach it without the client hop (the message encoded, HTTP/2, TLS in a secure cluster, a
 * loopback exchange). Looked up at each write, so a leader that moves to another process is followed over the
 * network.
 *
 * <p>Thread-safe.
 */
final class InProcessLeader {
  private final RaftGroupId group;
  private final List<HostPort> members;
  private final Duration timeout;
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();

  /**
   * @param members the Ratis addresses of the pipeline's members
   * @param timeout how long a write may take before it counts as failed
   */
  InProcessLeader(RaftGroupId group, List<HostPort> members, Duration timeout) {
    this.group = group;
    this.members = List.copyOf(members);
    this.timeout = timeout;
  }

  /** The reply of the group's leader to {@code message}, or null when no Raft server of this JVM leads it. */
  CompletableFuture<RaftClientReply> write(Message message) {
    for (HostPort member : members) {
      LocalRaftServer server = InProcessServers.raftAt(member);
      if (server != null && server.leads(group)) {
        return server.write(group, clientId, callIds.incrementAndGet(), message)
            .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
    return null;
  }
}
