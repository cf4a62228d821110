package org.tropos.common.rpc;

import com.google.protobuf.ProtocolMessageEnum;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one unary call of a service of ours and maps its outcome to the wire: the response, or a non-OK status
 * with detail — the service's operating error as it declares it, anything unexpected as its INTERNAL_ERROR
 * (logged once, here).
 *
 * @param <E> the service's exception
 */
public final class UnaryCalls<E extends Exception> {
  private static final Logger LOG = LoggerFactory.getLogger(UnaryCalls.class);

  /** The body of a call: returns the response or throws the service's operating error. */
  @FunctionalInterface
  public interface Body<T, E extends Exception> {
    T call() throws E;
  }

  private final String service;
  private final Class<E> errorType;
  private final Function<E, StatusRuntimeException> toStatus;
  private final ProtocolMessageEnum internalError;

  public UnaryCalls(String service, Class<E> errorType, Function<E, StatusRuntimeException> toStatus,
      ProtocolMessageEnum internalError) {
    this.service = service;
    this.errorType = errorType;
    this.toStatus = toStatus;
    this.internalError = internalError;
  }

  public <T> void respond(String method, StreamObserver<T> observer, Body<T, E> body) {
    T response;
    try {
      response = body.call();
    } catch (Exception e) {
      if (errorType.isInstance(e)) {
        observer.onError(toStatus.apply(errorType.cast(e)));
      } else {
        LOG.error("{} {} failed unexpectedly", service, method, e);
        observer.onError(RpcErrors.toStatus(internalError, method + " failed in " + service + ": " + e));
      }
      return;
    }
    observer.onNext(response);
    observer.onCompleted();
  }
}
