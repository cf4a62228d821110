package org.tropos.common.rpc;

import com.google.protobuf.Message;
import com.google.protobuf.ProtocolMessageEnum;
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
  private final IntFunction<? extends ProtocolMessageEnum> results;
  private final Clock clock;

  /**
   * @param audited which methods' calls are logged, by full name
   * @param results the services' Result enum's {@code forNumber} (what an error's detail carries is its number)
   */
  AuditInterceptor(AuditLog log, Predicate<String> audited, IntFunction<? extends ProtocolMessageEnum> results,
      Clock clock) {
    this.log = log;
    this.clock = clock;
    this.audited = audited;
    this.results = results;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    if (!log.enabled() || !audited.test(call.getMethodDescriptor().getFullMethodName())) {
      return next.startCall(call, headers);
    }
    AuditedCall<Q, R> audited = new AuditedCall<>(call);
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(audited, headers)) {
      @Override
      public void onMessage(Q message) {
        audited.request = message;
        super.onMessage(message);
      }
    };
  }

  /** A call that writes its audit line as it closes, with the request its listener saw. */
  private final class AuditedCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
    private final long start = clock.monotonicNanos();
    private final String from;
    private volatile Object request;

    AuditedCall(ServerCall<Q, R> call) {
      super(call);
      this.from = address(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    }

    @Override
    public void close(Status status, Metadata trailers) {
      log.record(new AuditLog.Entry(Callers.current(), Callers.authentication().name(), from,
          getMethodDescriptor().getBareMethodName(), request instanceof Message m ? AuditResources.of(m) : "",
          result(status, trailers), (clock.monotonicNanos() - start) / 1000));
      super.close(status, trailers);
    }
  }

  private String result(Status status, Metadata trailers) {
    if (status.isOk()) {
      return AuditLog.OK;
    }
    return RpcErrors.detailOf(status.asRuntimeException(trailers)).map(d -> {
      ProtocolMessageEnum result = results.apply(d.getResult());
      return result == null ? "RESULT_" + d.getResult() : result.getValueDescriptor().getName();
    }).orElse(status.getCode().name());
  }

  private static String address(SocketAddress address) {
    return address instanceof InetSocketAddress inet ? inet.getAddress().getHostAddress()
        : address == null ? "" : "in-process";
  }
}
