package org.tropos.common.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tropos.common.net.HostPort;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ScmBlockServiceGrpc;

/** Calls to a server of the same JVM go in-process, to the same handlers, and follow the server where it goes. */
@Timeout(30)
class InProcessServersTest {
  /** Records the user it saw and its thread, so a test knows the call reached the real handler. */
  private static final class Echo extends ScmBlockServiceGrpc.ScmBlockServiceImplBase {
    volatile String seen;

    @Override
    public void allocateBlock(AllocateBlockRequest request, StreamObserver<AllocateBlockResponse> response) {
      seen = Callers.current() + "|" + Thread.currentThread().getName();
      response.onNext(AllocateBlockResponse.getDefaultInstance());
      response.onCompleted();
    }
  }

  private final Echo echo = new Echo();

  private static RpcChannel<IOException> channel(String host, int port) {
    return new RpcChannel<>(new HostPort(host, port), (failure, target) -> new IOException(target + ": "
        + failure.getStatus().getCode(), failure), Duration.ofSeconds(10), "bob", RpcChannel.ServerTrust.plaintext());
  }

  private String call(RpcChannel<IOException> channel) throws IOException {
    echo.seen = null;
    channel.call(() -> channel.stub(ScmBlockServiceGrpc::newBlockingStub)
        .allocateBlock(AllocateBlockRequest.getDefaultInstance()));
    return echo.seen;
  }

  @Test
  void aServerOfThisJvmIsCalledInProcessWithTheCallersUserOnItsHandlerPool() throws Exception {
    try (GrpcServer server = new GrpcServer("echo-rpc", new HostPort("0.0.0.0", 0), 2, List.of(echo))) {
      server.start();
      for (String host : List.of("127.0.0.1", "localhost")) {
        try (RpcChannel<IOException> channel = channel(host, server.port())) {
          assertTrue(channel.inProcess(), host);
          String[] seen = call(channel).split("\\|");
          assertEquals("bob", seen[0]);
          assertTrue(seen[1].startsWith("echo-rpc-handler"), "ran on " + seen[1]);
        }
      }
    }
  }

  @Test
  void aServerBoundToOneAddressIsNotTakenForAnotherPortOrAStoppedServer() throws Exception {
    int port;
    try (GrpcServer server = new GrpcServer("echo-rpc", new HostPort("127.0.0.1", 0), 2, List.of(echo))) {
      server.start();
      port = server.port();
      try (RpcChannel<IOException> other = channel("127.0.0.1", port == 65535 ? port - 1 : port + 1)) {
        assertFalse(other.inProcess());
      }
    }
    try (RpcChannel<IOException> stopped = channel("127.0.0.1", port)) {
      assertFalse(stopped.inProcess());
      IOException e = assertThrows(IOException.class, () -> call(stopped));
      assertTrue(e.getMessage().endsWith(Status.Code.UNAVAILABLE.toString()), e.getMessage());
    }
  }

  @Test
  void aChannelFollowsItsServerFromTheNetworkToThisJvmAndBack() throws Exception {
    int port;
    try (GrpcServer first = new GrpcServer("echo-rpc", new HostPort("127.0.0.1", 0), 2, List.of(echo))) {
      first.start();
      port = first.port();
    }
    try (RpcChannel<IOException> channel = channel("127.0.0.1", port)) {
      assertThrows(IOException.class, () -> call(channel));
      try (GrpcServer second = new GrpcServer("echo-rpc", new HostPort("127.0.0.1", port), 2, List.of(echo))) {
        second.start();
        assertTrue(channel.inProcess());
        assertTrue(call(channel).startsWith("bob|"));
      }
      assertFalse(channel.inProcess());
      assertThrows(IOException.class, () -> call(channel));
    }
  }
}
