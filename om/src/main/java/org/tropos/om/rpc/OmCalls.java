package org.tropos.om.rpc;

import io.grpc.stub.StreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.RpcErrors;
import org.tropos.proto.om.OmResult;

/** Runs one unary OM call and maps its outcome to the wire: a response, or a non-OK status with detail. */
final class OmCalls {
  private static final Logger LOG = LoggerFactory.getLogger(OmCalls.class);

  private OmCalls() {
  }

  /** The body of a call: returns the response or throws an operating error. */
  @FunctionalInterface
  interface Body<T> {
    T call() throws OmException;
  }

  static <T> void respond(String method, StreamObserver<T> observer, Body<T> body) {
    T response;
    try {
      response = body.call();
    } catch (OmException e) {
      observer.onError(e.toStatus());
      return;
    } catch (RuntimeException e) {
      LOG.error("OM {} failed unexpectedly", method, e);
      observer.onError(RpcErrors.toStatus(OmResult.INTERNAL_ERROR, method + " failed in the OM: " + e));
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }
}
