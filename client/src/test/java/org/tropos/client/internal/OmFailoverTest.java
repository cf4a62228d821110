package org.tropos.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.CallIds;
import org.tropos.common.rpc.GrpcServer;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.RpcErrors;
import org.tropos.common.util.ManualClock;
import org.tropos.proto.om.GetVolumeRequest;
import org.tropos.proto.om.GetVolumeResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.VolumeInfo;

/**
 * The client's failover between OMs, against real gRPC servers on loopback that answer from a script: where a call
 * goes after NOT_LEADER, an unreachable OM, a busy one, and when it gives up. Its pauses run on a manual clock, so
 * the time they add up to is exact.
 */
class OmFailoverTest {
  private static final Duration BUDGET = Duration.ofSeconds(10);

  private final ManualClock clock = new ManualClock();
  private final List<GrpcServer> servers = new ArrayList<>();
  private OmFailover failover;

  @AfterEach
  void stop() {
    if (failover != null) {
      failover.close();
    }
    servers.forEach(GrpcServer::close);
  }

  @Test
  void aNotLeaderAnswerSendsTheCallToTheLeaderItNamesWithTheSameCallId() throws Exception {
    ScriptedOm a = new ScriptedOm("a");
    ScriptedOm unnamed = new ScriptedOm("unnamed").failingForever(OmResult.INTERNAL_ERROR);
    ScriptedOm leader = new ScriptedOm("leader");
    HostPort leaderAddress = serve(leader);
    a.failures.add(RpcErrors.toStatus(OmResult.NOT_LEADER, "not the leader", leaderAddress.toString()));
    failover = failover(List.of(serve(a), serve(unnamed), leaderAddress));
    assertEquals("leader", getVolume());
    assertEquals(1, a.callIds.size());
    assertEquals(List.of(), unnamed.callIds);
    assertEquals(a.callIds, leader.callIds, "one call, one id on every attempt");
    assertFalse(a.callIds.get(0).isEmpty());
    assertEquals("leader", getVolume(), "the next call goes to the leader first");
    assertEquals(1, a.callIds.size());
    assertEquals(0, clock.monotonicMillis(), "no pause while an OM names the leader");
  }

  @Test
  void aLeaderTheClientWasNotGivenIsAddedAndUsed() throws Exception {
    ScriptedOm a = new ScriptedOm("a");
    HostPort leaderAddress = serve(new ScriptedOm("leader"));
    a.failures.add(RpcErrors.toStatus(OmResult.NOT_LEADER, "not the leader", leaderAddress.toString()));
    failover = failover(List.of(serve(a)));
    assertEquals("leader", getVolume());
  }

  @Test
  void anOmThatCannotBeReachedIsSkipped() throws Exception {
    GrpcServer gone = new GrpcServer("om-gone", new HostPort("127.0.0.1", 0), 1, List.of(new ScriptedOm("gone")));
    gone.start();
    HostPort goneAddress = new HostPort("127.0.0.1", gone.port());
    gone.close();
    failover = failover(List.of(goneAddress, serve(new ScriptedOm("b"))));
    assertEquals("b", getVolume());
  }

  @Test
  void aBusyOmIsAskedAgainAfterTheWaitItNames() throws Exception {
    ScriptedOm busy = new ScriptedOm("busy");
    ScriptedOm other = new ScriptedOm("other").failingForever(OmResult.INTERNAL_ERROR);
    for (int i = 0; i < 2; i++) {
      busy.failures.add(RpcErrors.busy(OmResult.OM_BUSY, "short of memory", Duration.ofSeconds(1)));
    }
    failover = failover(List.of(serve(busy), serve(other)));
    assertEquals("busy", getVolume());
    assertEquals(3, busy.callIds.size());
    assertEquals(List.of(), other.callIds, "a busy OM is not a reason to go elsewhere");
    assertEquals(2_000, clock.monotonicMillis(), "the two waits it named");
  }

  @Test
  void noOmServingWithinTheBudgetFailsTheCallWithTheLastAnswer() throws Exception {
    ScriptedOm a = new ScriptedOm("a").failingForever(OmResult.OM_NOT_READY);
    ScriptedOm b = new ScriptedOm("b").failingForever(OmResult.OM_NOT_READY);
    failover = failover(List.of(serve(a), serve(b)));
    OmException failed = assertThrows(OmException.class, this::getVolume);
    assertEquals(OmResult.OM_NOT_READY, failed.result());
    assertTrue(failed.getMessage().contains("within 10 s"), failed.getMessage());
    // Both OMs are tried, then a pause of 100, 200, 400 ms, then 500 ms each time: tried at 0, 100, 300, 700 ms and
    // every 500 ms up to 9,700 (22 times each); at 10,200 ms the first one's answer ends it.
    assertEquals(10_200, clock.monotonicMillis());
    assertEquals(23, a.callIds.size());
    assertEquals(22, b.callIds.size());
  }

  @Test
  void anyOtherFailureIsTheCallersAtOnce() throws Exception {
    ScriptedOm a = new ScriptedOm("a").failingForever(OmResult.VOLUME_NOT_FOUND);
    ScriptedOm b = new ScriptedOm("b");
    failover = failover(List.of(serve(a), serve(b)));
    OmException failed = assertThrows(OmException.class, this::getVolume);
    assertEquals(OmResult.VOLUME_NOT_FOUND, failed.result());
    assertEquals(1, a.callIds.size());
    assertEquals(List.of(), b.callIds);
    assertEquals(0, clock.monotonicMillis());
  }

  private OmFailover failover(List<HostPort> oms) {
    return new OmFailover(oms, Duration.ofSeconds(10), "alice", clock, BUDGET);
  }

  private String getVolume() throws OmException {
    return failover.call(() -> failover.stub(OmServiceGrpc::newBlockingStub)
        .getVolume(GetVolumeRequest.newBuilder().setName("vol").build())).getVolume().getName();
  }

  private HostPort serve(ScriptedOm om) throws IOException {
    GrpcServer server = new GrpcServer("om-" + om.name, new HostPort("127.0.0.1", 0), 1, List.of(om));
    servers.add(server);
    server.start();
    return new HostPort("127.0.0.1", server.port());
  }

  /**
   * An OM whose GetVolume answers from a script: the failures queued, then forever the failure it was given or the
   * volume, named after the OM. It keeps the id of each call it received.
   */
  private static final class ScriptedOm extends OmServiceGrpc.OmServiceImplBase {
    final String name;
    final Deque<StatusRuntimeException> failures = new ArrayDeque<>();
    final List<String> callIds = new CopyOnWriteArrayList<>();
    private OmResult forever;

    ScriptedOm(String name) {
      this.name = name;
    }

    ScriptedOm failingForever(OmResult result) {
      forever = result;
      return this;
    }

    @Override
    public void getVolume(GetVolumeRequest request, StreamObserver<GetVolumeResponse> response) {
      callIds.add(CallIds.current());
      StatusRuntimeException failure = failures.poll();
      if (failure == null && forever != null) {
        failure = RpcErrors.toStatus(forever, name + " answers " + forever);
      }
      if (failure != null) {
        response.onError(failure);
        return;
      }
      response.onNext(GetVolumeResponse.newBuilder().setVolume(VolumeInfo.newBuilder().setName(name)).build());
      response.onCompleted();
    }
  }
}
