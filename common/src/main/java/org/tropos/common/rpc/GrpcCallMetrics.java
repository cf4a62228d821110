package org.tropos.common.rpc;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import org.tropos.common.metrics.Latency;

/**
 * Times every call a gRPC server answers, by service, method and status code: the per-operation request counts
 * and latency histograms of a daemon's {@code /prom} ({@code rpc_server_calls_seconds}). A call is timed from
 * its arrival to its answer, handler queueing included.
 */
final class GrpcCallMetrics implements ServerInterceptor {
  private final MeterRegistry registry;
  private final Meter.MeterProvider<Timer> calls;

  GrpcCallMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.calls = Latency.timer("rpc.server.calls", "gRPC calls answered, by service, method and status code.")
        .withRegistry(registry);
  }

  @Override
  public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
      ServerCallHandler<Q, A> next) {
    Timer.Sample started = Timer.start(registry);
    String service = call.getMethodDescriptor().getServiceName();
    String method = call.getMethodDescriptor().getBareMethodName();
    return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        started.stop(calls.withTags("service", service, "method", method, "code", status.getCode().name()));
        super.close(status, trailers);
      }
    }, headers);
  }
}
