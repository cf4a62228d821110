package org.tropos.common.rpc;

import com.google.protobuf.ProtocolMessageEnum;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import java.time.Duration;
import java.util.Optional;
import java.util.function.IntFunction;
import org.tropos.proto.rpc.ErrorDetail;
import org.tropos.proto.rpc.GrpcCode;
import org.tropos.proto.rpc.Rpc;

/**
 * The one mapping between our Result enums and gRPC: a failed call carries the canonical gRPC code declared on
 * the Result value (option {@code grpc_code}) and an {@link ErrorDetail} in its trailers. Deadlines, retries and
 * metrics key off the gRPC code; callers branch on the Result.
 */
public final class RpcErrors {
  /** The longest wait a busy server's hint is followed for. */
  private static final Duration LONGEST_RETRY_AFTER = Duration.ofSeconds(10);
  private static final Metadata.Key<ErrorDetail> DETAIL_KEY = ProtoUtils.keyForProto(ErrorDetail.getDefaultInstance());

  private RpcErrors() {
  }

  public static StatusRuntimeException toStatus(ProtocolMessageEnum result, String message) {
    return toStatus(result, message, "");
  }

  public static StatusRuntimeException toStatus(ProtocolMessageEnum result, String message, String leaderHint) {
    Metadata trailers = new Metadata();
    trailers.put(DETAIL_KEY, ErrorDetail.newBuilder().setResult(result.getNumber()).setMessage(message)
        .setLeaderHint(leaderHint).build());
    return Status.fromCodeValue(grpcCodeOf(result).getNumber()).withDescription(message).asRuntimeException(trailers);
  }

  /** A busy server's answer: {@code result} (RESOURCE_EXHAUSTED) and how long the caller should wait. */
  public static StatusRuntimeException busy(ProtocolMessageEnum result, String message, Duration retryAfter) {
    Metadata trailers = new Metadata();
    trailers.put(DETAIL_KEY, ErrorDetail.newBuilder().setResult(result.getNumber()).setMessage(message)
        .setRetryAfterMs(retryAfter.toMillis()).build());
    return Status.fromCodeValue(grpcCodeOf(result).getNumber()).withDescription(message).asRuntimeException(trailers);
  }

  /** How long a busy server asked its caller to wait: {@code unsaid} if it did not say, at most 10 s. */
  public static Duration retryAfterOf(Throwable t, Duration unsaid) {
    long ms = t == null ? 0 : detailOf(t).map(ErrorDetail::getRetryAfterMs).orElse(0L);
    return ms <= 0 ? unsaid : Duration.ofMillis(Math.min(ms, LONGEST_RETRY_AFTER.toMillis()));
  }

  /** The detail a server attached to a failed call, if any (absent for transport failures). */
  public static Optional<ErrorDetail> detailOf(Throwable t) {
    Metadata trailers = Status.trailersFromThrowable(t);
    return trailers == null ? Optional.empty() : Optional.ofNullable(trailers.get(DETAIL_KEY));
  }

  /** What a failed call means to its caller: the service's Result and a message. */
  public record Failure<R>(R result, String message) {
  }

  /**
   * Translates a failed call on the client side: the server's detail when it sent one, else {@code notReady}
   * when the service could not be reached in time (UNAVAILABLE, DEADLINE_EXCEEDED), {@code denied} when the
   * server's transport refused the caller (UNAUTHENTICATED, PERMISSION_DENIED: no or the wrong certificate), else
   * {@code internal}.
   *
   * @param forNumber the Result enum's {@code forNumber}; an unknown number becomes {@code unspecified}
   */
  public static <R extends ProtocolMessageEnum> Failure<R> failureOf(StatusRuntimeException e, String service,
      String target, IntFunction<R> forNumber, R unspecified, R notReady, R denied, R internal) {
    Optional<ErrorDetail> detail = detailOf(e);
    if (detail.isPresent()) {
      R result = forNumber.apply(detail.get().getResult());
      return new Failure<>(result == null ? unspecified : result, detail.get().getMessage());
    }
    Status.Code code = e.getStatus().getCode();
    boolean unreachable = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
    String description = e.getStatus().getDescription();
    String why = description == null ? code.toString() : code + ": " + description;
    String what = unreachable ? "cannot reach " + service + " at " : "call to " + service + " at ";
    boolean refused = code == Status.Code.UNAUTHENTICATED || code == Status.Code.PERMISSION_DENIED;
    return new Failure<>(unreachable ? notReady : refused ? denied : internal, what + target + " (" + why + ")");
  }

  public static GrpcCode grpcCodeOf(ProtocolMessageEnum result) {
    return result.getValueDescriptor().getOptions().getExtension(Rpc.grpcCode);
  }

  public static boolean isRetriable(ProtocolMessageEnum result) {
    return result.getValueDescriptor().getOptions().getExtension(Rpc.retriable);
  }
}
