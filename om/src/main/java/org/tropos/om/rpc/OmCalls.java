package org.tropos.om.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.rpc.CallIds;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.UnaryCalls;
import org.tropos.common.security.Authentication;
import org.tropos.om.occ.CallScope;
import org.tropos.om.token.DelegationTokens;
import org.tropos.proto.om.OmResult;

/**
 * Runs one unary OM call and maps its outcome to the wire: a response, or a non-OK status with detail. A call is
 * served only while this OM may serve ({@link Leadership}); otherwise it is NOT_LEADER and nothing runs. A caller
 * proven by a delegation token is served only while the token is live here, where the state is current.
 */
final class OmCalls {
  private static final UnaryCalls<OmException> CALLS = new UnaryCalls<>("the OM", OmException.class,
      OmException::toStatus, OmResult.INTERNAL_ERROR);

  private final Leadership leadership;
  private final DelegationTokens tokens;

  OmCalls(Leadership leadership, DelegationTokens tokens) {
    this.leadership = leadership;
    this.tokens = tokens;
  }

  /** A call about this OM itself, served whatever its role. */
  static <T> void respondInAnyRole(String method, StreamObserver<T> observer, UnaryCalls.Body<T, OmException> body) {
    CALLS.respond(method, observer, body);
  }

  <T> void respond(String method, StreamObserver<T> observer, UnaryCalls.Body<T, OmException> body) {
    respond(method, observer, body, false);
  }

  /** A call that only reads: a follower that serves reads may answer it ({@link Leadership#requireForRead}). */
  <T> void respondRead(String method, StreamObserver<T> observer, UnaryCalls.Body<T, OmException> body) {
    respond(method, observer, body, true);
  }

  private <T> void respond(String method, StreamObserver<T> observer, UnaryCalls.Body<T, OmException> body,
      boolean read) {
    CALLS.respond(method, observer, () -> {
      if (read) {
        leadership.requireForRead();
      } else {
        leadership.require();
      }
      if (Callers.authentication() == Authentication.TOKEN) {
        tokens.requireLive(Callers.delegationToken());
      }
      // With a call id (clients of an HA service send one), the call's transactions use the retry cache.
      try (CallScope scope = CallScope.open(CallIds.current())) {
        return body.call();
      }
    });
  }
}
