package org.tropos.common.rpc;

import io.grpc.StatusRuntimeException;
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
    RpcErrors.Failure<OmResult> failure = RpcErrors.failureOf(e, "the OM", target, OmResult::forNumber,
        OmResult.OM_RESULT_UNSPECIFIED, OmResult.OM_NOT_READY, OmResult.INTERNAL_ERROR);
    return new OmException(failure.result(), failure.message(), e);
  }

  @Override
  public String toString() {
    return result + ": " + getMessage();
  }
}
