package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.rpc.UnaryCalls;
import org.tropos.proto.scm.ScmResult;

/** Runs one unary SCM call and maps its outcome to the wire: a response, or a non-OK status with detail. */
final class ScmCalls {
  private static final UnaryCalls<ScmException> CALLS = new UnaryCalls<>("SCM", ScmException.class,
      ScmException::toStatus, ScmResult.INTERNAL_ERROR);

  private ScmCalls() {
  }

  static <T> void respond(String method, StreamObserver<T> observer, UnaryCalls.Body<T, ScmException> body) {
    CALLS.respond(method, observer, body);
  }

  static ScmException invalid(String message) {
    return new ScmException(ScmResult.INVALID_REQUEST, message);
  }
}
