package org.tropos.common.rpc;

import com.google.protobuf.Message;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.tropos.common.audit.AuditLog;
import org.tropos.common.audit.AuditResources;
import org.tropos.common.util.Clock;

/**
 * Writes an audit line for each audited call when it ends: the user and how it was proven (as
 * {@link Callers} knows them when the call closes, nobody for a call refused before it was authenticated), the
 * peer's address, the method, what the request names ({@link AuditResources}), the result (the service's Result
 * name from the error's detail, else the gRPC code) and the time taken. It runs outside the admission and
 * authentication checks, so their refusals are logged too.
 */
final class AuditInterceptor implements ServerInterceptor {
  private final AuditLog log;
  private final Predicate<String> audited;
  private final IntFunction<String> resultNames;
  private final Clock clock;

  /**
   * @param audited which methods' calls are logged, by full name
   * @param resultNames the name of a Result value of the services (the number an error's detail carries)
   */
  AuditInterceptor(AuditLog log, Predicate<String> audited, IntFunction<String> resultNames, Clock clock) {
    this.log = log;
    this.clock = clock;
    this.audited = audited;
    this.resultNames = resultNames;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    if (!log.enabled() || !audited.test(call.getMethodDescriptor().getFullMethodName())) {
      return next.startCall(call, headers);
    }
    long start = clock.monotonicNanos();
    String from = address(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    String method = call.getMethodDescriptor().getBareMethodName();
    Object[] request = new Object[1];
    ServerCall<Q, R> audited = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        log.record(new AuditLog.Entry(Callers.current(), Callers.authentication().name(), from, method,
            request[0] instanceof Message m ? AuditResources.of(m) : "", result(status, trailers),
            (clock.monotonicNanos() - start) / 1000));
        super.close(status, trailers);
      }
    };
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(audited, headers)) {
      @Override
      public void onMessage(Q message) {
        request[0] = message;
        super.onMessage(message);
      }
    };
  }

  private String result(Status status, Metadata trailers) {
    if (status.isOk()) {
      return AuditLog.OK;
    }
    return RpcErrors.detailOf(status.asRuntimeException(trailers)).map(d -> resultNames.apply(d.getResult()))
        .orElse(status.getCode().name());
  }

  private static String address(SocketAddress address) {
    return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress()
        : address == null ? "" : "in-process";
  }
}
