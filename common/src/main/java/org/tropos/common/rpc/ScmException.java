package org.tropos.common.rpc;

import io.grpc.StatusRuntimeException;
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
    RpcErrors.Failure<ScmResult> failure = RpcErrors.failureOf(e, "SCM", target, ScmResult::forNumber,
        ScmResult.SCM_RESULT_UNSPECIFIED, ScmResult.SCM_NOT_READY, ScmResult.PERMISSION_DENIED,
        ScmResult.INTERNAL_ERROR);
    return new ScmException(failure.result(), failure.message(), e);
  }

  @Override
  public String toString() {
    return result + ": " + getMessage();
  }
}
