package org.tropos.common.rpc;

import java.util.concurrent.CompletableFuture;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;

/**
 * A Raft server of this JVM, handed client writes without its socket ({@link InProcessServers}): a write takes the
 * server's own path from its client port on (leadership, the state machine's checks, the log, the reply), without
 * the gRPC hop before it (the message encoded and decoded, HTTP/2, TLS, a loopback exchange).
 */
public interface LocalRaftServer {
  /** Whether this server's member of {@code group} leads it and takes writes now. */
  boolean leads(RaftGroupId group);

  /**
   * Submits {@code message} to {@code group} as a write from {@code client} with {@code callId} through the client
   * port would be. The server may keep the message's bytes after the reply: the caller must not change them.
   */
  CompletableFuture<RaftClientReply> write(RaftGroupId group, ClientId client, long callId, Message message);
}
