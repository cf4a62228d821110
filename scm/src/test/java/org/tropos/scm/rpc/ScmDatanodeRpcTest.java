package org.tropos.scm.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.grpc.stub.StreamObserver;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.RpcErrors;
import org.tropos.common.util.Uuids;
import org.tropos.proto.rpc.ErrorDetail;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.HeartbeatResponse;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmResult;

/**
 * A single SCM opens its datanode port before its managers serve: a datanode that registers or beats in that
 * moment is told SCM is not ready (it retries), not handled as if this SCM followed an HA service's leader.
 */
class ScmDatanodeRpcTest {
  /** Keeps the error a call ended with. */
  private static final class Outcome<T> implements StreamObserver<T> {
    Throwable error;

    @Override
    public void onNext(T value) {
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onCompleted() {
    }
  }

  private final ScmDatanodeRpc startingSingleScm = new ScmDatanodeRpc(() -> null, null, null, null);
  private final UUID node = UUID.randomUUID();

  @Test
  void aSingleScmNotServingYetAnswersNotReady() {
    Outcome<RegisterResponse> registered = new Outcome<>();
    startingSingleScm.register(RegisterRequest.newBuilder().setDatanode(DatanodeDetails.newBuilder()
        .setUuid(Uuids.toProto(node)).setHostName("dn1")).build(), registered);
    assertEquals(ScmResult.SCM_NOT_READY.getNumber(), detail(registered).getResult());

    Outcome<HeartbeatResponse> beat = new Outcome<>();
    startingSingleScm.heartbeat(HeartbeatRequest.newBuilder().setDatanodeUuid(Uuids.toProto(node)).build(), beat);
    assertEquals(ScmResult.SCM_NOT_READY.getNumber(), detail(beat).getResult());
  }

  private static ErrorDetail detail(Outcome<?> outcome) {
    assertNotNull(outcome.error, "the call failed");
    return RpcErrors.detailOf(outcome.error).orElseThrow();
  }
}
