package org.tropos.common.rpc;

import com.google.protobuf.ProtocolMessageEnum;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import java.util.Optional;
import org.tropos.proto.rpc.ErrorDetail;
import org.tropos.proto.rpc.GrpcCode;
import org.tropos.proto.rpc.Rpc;

/**
 * The one mapping between our Result enums and gRPC: a failed call carries the canonical gRPC code declared on
 * the Result value (option {@code grpc_code}) and an {@link ErrorDetail} in its trailers. Deadlines, retries and
 * metrics key off the gRPC code; callers branch on the Result.
 */
public final class RpcErrors {
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

  /** The detail a server attached to a failed call, if any (absent for transport failures). */
  public static Optional<ErrorDetail> detailOf(Throwable t) {
    Metadata trailers = Status.trailersFromThrowable(t);
    return trailers == null ? Optional.empty() : Optional.ofNullable(trailers.get(DETAIL_KEY));
  }

  public static GrpcCode grpcCodeOf(ProtocolMessageEnum result) {
    return result.getValueDescriptor().getOptions().getExtension(Rpc.grpcCode);
  }

  public static boolean isRetriable(ProtocolMessageEnum result) {
    return result.getValueDescriptor().getOptions().getExtension(Rpc.retriable);
  }
}
