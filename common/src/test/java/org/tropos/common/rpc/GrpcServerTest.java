package org.tropos.common.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tropos.common.net.HostPort;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.GetContainersResponse;
import org.tropos.proto.scm.ScmBlockServiceGrpc;

/** A real gRPC server and client on loopback: where handlers run, what they see, and a handler that throws. */
@Timeout(30)
class GrpcServerTest {
  /** Records what the AllocateBlock handler saw: its thread, the caller and the call id. */
  private static final class Probe extends ScmBlockServiceGrpc.ScmBlockServiceImplBase {
    volatile String seen;

    @Override
    public void allocateBlock(AllocateBlockRequest request, StreamObserver<AllocateBlockResponse> response) {
      seen = Thread.currentThread().getName() + "|" + Callers.current() + "|" + CallIds.current();
      response.onNext(AllocateBlockResponse.getDefaultInstance());
      response.onCompleted();
    }

    @Override
    public void getContainers(GetContainersRequest request, StreamObserver<GetContainersResponse> response) {
      throw new IllegalStateException("a bug in the handler");
    }
  }

  private final Probe probe = new Probe();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private GrpcServer server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    server = new GrpcServer("probe-rpc", new HostPort("127.0.0.1", 0), 2, List.of(probe), registry);
    server.start();
    channel = RpcChannel.open(new HostPort("127.0.0.1", server.port()), RpcChannel.ServerTrust.plaintext());
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
  }

  private ScmBlockServiceGrpc.ScmBlockServiceBlockingStub stub() {
    return ScmBlockServiceGrpc.newBlockingStub(ClientInterceptors.intercept(channel, Callers.sending("alice"),
        CallIds.sending("call-7"))).withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  @Test
  void handlersRunOnTheServersPoolAndSeeTheCallersHeaders() {
    for (int i = 0; i < 20; i++) {
      stub().allocateBlock(AllocateBlockRequest.getDefaultInstance());
      String[] seen = probe.seen.split("\\|");
      assertTrue(seen[0].startsWith("probe-rpc-handler"), "ran on " + seen[0]);
      assertEquals("alice", seen[1]);
      assertEquals("call-7", seen[2]);
    }
  }

  @Test
  void aHandlerThatThrowsIsAnsweredAtOnceAndTheServerGoesOn() {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> stub().getContainers(GetContainersRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNKNOWN, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("a bug in the handler"), e.getStatus().toString());
    stub().allocateBlock(AllocateBlockRequest.getDefaultInstance());
  }

  @Test
  void everyCallIsTimedByServiceMethodAndStatusCode() {
    for (int i = 0; i < 3; i++) {
      stub().allocateBlock(AllocateBlockRequest.getDefaultInstance());
    }
    assertThrows(StatusRuntimeException.class, () -> stub().getContainers(GetContainersRequest.getDefaultInstance()));
    assertEquals(3, registry.get("rpc.server.calls").tags("service", "tropos.scm.ScmBlockService", "method",
        "AllocateBlock", "code", "OK").timer().count());
    assertEquals(1, registry.get("rpc.server.calls").tags("method", "GetContainers", "code", "UNKNOWN").timer()
        .count());
  }
}
