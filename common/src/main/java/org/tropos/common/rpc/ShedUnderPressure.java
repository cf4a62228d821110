package org.tropos.common.rpc;

import com.google.protobuf.ProtocolMessageEnum;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import org.tropos.common.util.HeapPressure;

/**
 * Refuses the calls that bring new data in while the heap is under pressure ({@link HeapPressure}): they are
 * answered at once with the service's busy Result (RESOURCE_EXHAUSTED) and a hint to retry after
 * {@link HeapPressure#RETRY_AFTER}, before any handler runs. Every other call is served as usual. Each refusal is
 * counted per method ({@code rpc_busy_refusals_total}): how often writers were told to come back.
 */
public final class ShedUnderPressure implements ServerInterceptor {
  private final MeterRegistry registry;
  private final HeapPressure pressure;
  private final ProtocolMessageEnum busy;
  private final Set<String> methods;

  /**
   * @param registry where the refusals are counted
   * @param busy the service's Result for a busy server
   * @param fullMethodNames the calls refused under pressure ({@code service/method}, as gRPC names them)
   */
  public ShedUnderPressure(MeterRegistry registry, HeapPressure pressure, ProtocolMessageEnum busy,
      Set<String> fullMethodNames) {
    this.registry = registry;
    this.pressure = pressure;
    this.busy = busy;
    this.methods = Set.copyOf(fullMethodNames);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    if (!pressure.high() || !methods.contains(call.getMethodDescriptor().getFullMethodName())) {
      return next.startCall(call, headers);
    }
    registry.counter("rpc.busy.refusals", "method", call.getMethodDescriptor().getFullMethodName()).increment();
    StatusRuntimeException refusal = RpcErrors.busy(busy, pressure.reason(), HeapPressure.RETRY_AFTER);
    call.close(refusal.getStatus(), refusal.getTrailers());
    return new ServerCall.Listener<>() {
    };
  }
}
