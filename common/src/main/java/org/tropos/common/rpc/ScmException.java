package org.tropos.common.rpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Optional;
import org.tropos.proto.rpc.ErrorDetail;
import org.tropos.proto.scm.ScmResult;

/**
 * An operating error of SCM (not found, not registered, busy), on the server and as seen by its clients.
 * Transport failures (SCM down, deadline) arrive as {@link ScmResult#SCM_NOT_READY} with the gRPC cause.
 */
public final class ScmException extends Exception {
  private static final long serialVersionUID = 1L;
  private final ScmResult result;

  public ScmException(ScmResult result, String message) {
    super(message);
    this.result = result;
  }

  private ScmException(ScmResult result, String message, Throwable cause) {
    super(message, cause);
    this.result = result;
  }

  public ScmResult result() {
    return result;
  }

  public boolean isRetriable() {
    return RpcErrors.isRetriable(result);
  }

  public StatusRuntimeException toStatus() {
    return RpcErrors.toStatus(result, getMessage());
  }

  /** Translates a failed SCM call on the client side. */
  public static ScmException fromRpc(StatusRuntimeException e, String target) {
    Optional<ErrorDetail> detail = RpcErrors.detailOf(e);
    if (detail.isPresent()) {
      ScmResult result = ScmResult.forNumber(detail.get().getResult());
      ScmResult known = result == null ? ScmResult.SCM_RESULT_UNSPECIFIED : result;
      return new ScmException(known, detail.get().getMessage(), e);
    }
    Status.Code code = e.getStatus().getCode();
    ScmResult result = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
        ? ScmResult.SCM_NOT_READY : ScmResult.INTERNAL_ERROR;
    String description = e.getStatus().getDescription();
    String why = description == null ? code.toString() : code + ": " + description;
    String what = result == ScmResult.SCM_NOT_READY ? "cannot reach SCM at " : "call to SCM at ";
    return new ScmException(result, what + target + " (" + why + ")", e);
  }

  @Override
  public String toString() {
    return result + ": " + getMessage();
  }
}
