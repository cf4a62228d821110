package org.tropos.common.rpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Optional;
import org.tropos.proto.rpc.ErrorDetail;
import org.tropos.proto.om.OmResult;

/**
 * An operating error of the OM (not found, already exists, conflicts), on the server and as seen by its clients.
 * Transport failures (OM down, deadline) arrive as {@link OmResult#OM_NOT_READY} with the gRPC cause.
 */
public final class OmException extends Exception {
  private static final long serialVersionUID = 1L;
  private final OmResult result;

  public OmException(OmResult result, String message) {
    super(message);
    this.result = result;
  }

  private OmException(OmResult result, String message, Throwable cause) {
    super(message, cause);
    this.result = result;
  }

  public OmResult result() {
    return result;
  }

  public boolean isRetriable() {
    return RpcErrors.isRetriable(result);
  }

  public StatusRuntimeException toStatus() {
    return RpcErrors.toStatus(result, getMessage());
  }

  /** Translates a failed OM call on the client side. */
  public static OmException fromRpc(StatusRuntimeException e, String target) {
    Optional<ErrorDetail> detail = RpcErrors.detailOf(e);
    if (detail.isPresent()) {
      OmResult result = OmResult.forNumber(detail.get().getResult());
      OmResult known = result == null ? OmResult.OM_RESULT_UNSPECIFIED : result;
      return new OmException(known, detail.get().getMessage(), e);
    }
    Status.Code code = e.getStatus().getCode();
    OmResult result = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
        ? OmResult.OM_NOT_READY : OmResult.INTERNAL_ERROR;
    String description = e.getStatus().getDescription();
    String why = description == null ? code.toString() : code + ": " + description;
    String what = result == OmResult.OM_NOT_READY ? "cannot reach the OM at " : "call to the OM at ";
    return new OmException(result, what + target + " (" + why + ")", e);
  }

  @Override
  public String toString() {
    return result + ": " + getMessage();
  }
}
