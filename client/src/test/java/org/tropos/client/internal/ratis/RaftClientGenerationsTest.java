package org.tropos.client.internal.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.exceptions.AlreadyClosedException;
import org.apache.ratis.retry.RetryPolicies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients are replaced after their quota of requests, or at their first failed request, and closed once their
 * requests are answered. Real Ratis clients of a group whose one member's port is closed: each watch fails at once
 * (no retries), which answers it.
 */
@Timeout(60)
class RaftClientGenerationsTest {
  private final List<RaftClient> made = new ArrayList<>();

  private RaftClient newClient(int port) {
    RaftProperties properties = new RaftProperties();
    RaftClient client = RaftClient.newBuilder().setProperties(properties).setRetryPolicy(RetryPolicies.noRetry())
        .setRaftGroup(RaftGroup.valueOf(RaftGroupId.randomId(), RaftPeer.newBuilder().setId(UUID.randomUUID()
            .toString()).setAddress("127.0.0.1:" + port).build()))
        .setClientRpc(new GrpcFactory(new Parameters()).newRaftClientRpc(ClientId.randomId(), properties)).build();
    made.add(client);
    return client;
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Whether {@code client} was closed: a closed Ratis client refuses a request at once, naming itself. */
  private static boolean isClosed(RaftClient client) throws Exception {
    try {
      client.async().watch(1, ReplicationLevel.ALL_COMMITTED).get(10, TimeUnit.SECONDS);
      return false;
    } catch (ExecutionException e) {
      // An open client fails too (its peer's port is closed), with the proxy named instead of the client.
      return e.getCause() instanceof AlreadyClosedException closed && closed.getMessage().contains(client.toString());
    }
  }

  @Test
  void aClientIsReplacedAfterItsQuotaAndClosedOnceItsWatchesAreAnswered() throws Exception {
    int port = closedPort();
    RaftClientGenerations watches = new RaftClientGenerations(() -> newClient(port), 2, false);
    for (long index = 1; index <= 5; index++) {
      long watched = index;
      ExecutionException failed = assertThrows(ExecutionException.class,
          () -> watches.send(c -> c.async().watch(watched, ReplicationLevel.ALL_COMMITTED)).get(10, TimeUnit.SECONDS));
      assertInstanceOf(java.io.IOException.class, failed.getCause(), failed.toString());
    }
    assertEquals(3, made.size(), "two watches per client: five watches take three clients");
    // Replaced clients are closed on another thread, once their last watch was answered.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!(isClosed(made.get(0)) && isClosed(made.get(1))) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(20); // closed on the watch client pool's thread: polled
    }
    assertEquals(List.of(true, true, false), List.of(isClosed(made.get(0)), isClosed(made.get(1)),
        isClosed(made.get(2))));
    watches.close();
    assertEquals(true, isClosed(made.get(2)));
    assertThrows(IllegalStateException.class,
        () -> watches.send(c -> c.async().watch(6, ReplicationLevel.ALL_COMMITTED)));
  }

  @Test
  void aClientReplacedOnFailureIsReplacedAtItsFirstFailedRequestAndClosed() throws Exception {
    int port = closedPort();
    RaftClientGenerations writes = new RaftClientGenerations(() -> newClient(port), Long.MAX_VALUE, true);
    for (long index = 1; index <= 3; index++) {
      long watched = index;
      assertThrows(ExecutionException.class,
          () -> writes.send(c -> c.async().watch(watched, ReplicationLevel.ALL_COMMITTED)).get(10, TimeUnit.SECONDS));
    }
    assertEquals(3, made.size(), "each failure replaced the client");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!made.stream().allMatch(WatchClosedCheck::closed) && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(20); // closed on another thread once answered: polled
    }
    assertEquals(List.of(true, true, true), made.stream().map(WatchClosedCheck::closed).toList());
    writes.close();
  }

  /** {@link #isClosed} for a stream. */
  private static final class WatchClosedCheck {
    static boolean closed(RaftClient client) {
      try {
        return isClosed(client);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
