package org.tropos.common.rpc;

import io.grpc.StatusRuntimeException;
import org.tropos.proto.om.OmResult;

/**
 * An operating error of the OM (not found, already exists, conflicts), on the server and as seen by its clients.
 * Transport failures (OM down, deadline) arrive as {@link OmResult#OM_NOT_READY} with the gRPC cause. The OM may
 * subclass it for a failure its service acts on before it answers.
 */
public class OmException extends Exception {
  private static final long serialVersionUID = 1L;
  private final OmResult result;
  private final String leaderHint;

  public OmException(OmResult result, String message) {
    this(result, message, "", null);
  }

  private OmException(OmResult result, String message, String leaderHint, Throwable cause) {
    super(message, cause);
    this.result = result;
    this.leaderHint = leaderHint;
  }

  /** NOT_LEADER from an OM of an HA service, naming the leader's client address ("host:port") if it knows it. */
  public static OmException notLeader(String message, String leaderHint) {
    return new OmException(OmResult.NOT_LEADER, message, leaderHint, null);
  }

  public OmResult result() {
    return result;
  }

  /** For NOT_LEADER: where the leader is believed to be ("host:port"), else empty. */
  public String leaderHint() {
    return leaderHint;
  }

  public boolean isRetriable() {
    return RpcErrors.isRetriable(result);
  }

  public StatusRuntimeException toStatus() {
    return RpcErrors.toStatus(result, getMessage(), leaderHint);
  }

  /** Translates a failed OM call on the client side. */
  public static OmException fromRpc(StatusRuntimeException e, String target) {
    RpcErrors.Failure<OmResult> failure = RpcErrors.failureOf(e, "the OM", target, OmResult::forNumber,
        OmResult.OM_RESULT_UNSPECIFIED, OmResult.OM_NOT_READY, OmResult.PERMISSION_DENIED, OmResult.INTERNAL_ERROR);
    String hint = RpcErrors.detailOf(e).map(d -> d.getLeaderHint()).orElse("");
    return new OmException(failure.result(), failure.message(), hint, e);
  }

  @Override
  public String toString() {
    return result + ": " + getMessage();
  }
}
