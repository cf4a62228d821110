package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.RpcErrors;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.scm.ScmResult;

/** Runs one unary SCM call and maps its outcome to the wire: a response, or a non-OK status with detail. */
final class ScmCalls {
  private static final Logger LOG = LoggerFactory.getLogger(ScmCalls.class);

  private ScmCalls() {
  }

  /** The body of a call: returns the response or throws an operating error. */
  @FunctionalInterface
  interface Body<T> {
    T call() throws ScmException;
  }

  static <T> void respond(String method, StreamObserver<T> observer, Body<T> body) {
    T response;
    try {
      response = body.call();
    } catch (ScmException e) {
      observer.onError(e.toStatus());
      return;
    } catch (RuntimeException e) {
      LOG.error("SCM {} failed unexpectedly", method, e);
      observer.onError(RpcErrors.toStatus(ScmResult.INTERNAL_ERROR, method + " failed in SCM: " + e));
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }

  static ScmException invalid(String message) {
    return new ScmException(ScmResult.INVALID_REQUEST, message);
  }
}
