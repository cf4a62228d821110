package org.tropos.common.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.proto.om.OmResult;

class UnaryCallsTest {
  private final UnaryCalls<OmException> calls = new UnaryCalls<>("the OM", OmException.class, OmException::toStatus,
      OmResult.INTERNAL_ERROR);

  /** Records what a call sent. */
  private static final class Recorder implements StreamObserver<String> {
    final List<String> values = new ArrayList<>();
    Throwable error;
    boolean completed;

    @Override
    public void onNext(String value) {
      values.add(value);
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onCompleted() {
      completed = true;
    }
  }

  @Test
  void answersWithTheResponse() {
    Recorder r = new Recorder();
    calls.respond("Get", r, () -> "ok");
    assertEquals(List.of("ok"), r.values);
    assertTrue(r.completed);
    assertNull(r.error);
  }

  @Test
  void anOperatingErrorTravelsWithItsCodeAndResult() {
    Recorder r = new Recorder();
    calls.respond("Get", r, () -> {
      throw new OmException(OmResult.KEY_NOT_FOUND, "k not found");
    });
    assertEquals(Status.Code.NOT_FOUND, Status.fromThrowable(r.error).getCode());
    assertEquals(OmResult.KEY_NOT_FOUND.getNumber(), RpcErrors.detailOf(r.error).orElseThrow().getResult());
    assertTrue(r.values.isEmpty());
  }

  @Test
  void anythingUnexpectedIsAnInternalError() {
    Recorder r = new Recorder();
    calls.respond("Get", r, () -> {
      throw new IllegalStateException("bug");
    });
    assertEquals(Status.Code.INTERNAL, Status.fromThrowable(r.error).getCode());
    assertEquals(OmResult.INTERNAL_ERROR.getNumber(), RpcErrors.detailOf(r.error).orElseThrow().getResult());
    assertTrue(RpcErrors.detailOf(r.error).orElseThrow().getMessage().contains("bug"));
  }
}
