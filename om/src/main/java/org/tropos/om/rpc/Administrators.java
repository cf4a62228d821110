package org.tropos.om.rpc;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.tropos.common.rpc.Callers;
import org.tropos.common.security.Authentication;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OmResult;

/**
 * Who administers the OM: the users of the OM's own {@code ozone.administrators} and the user running the OM (as
 * in Ozone). A client's configuration has no say: the OM decides from the caller's user ({@link Callers}).
 *
 * <p>Immutable; thread-safe.
 */
public final class Administrators {
  private final Set<String> users;
  private final boolean everyone;

  public Administrators(Collection<String> configured, String omUser) {
    this.users = new HashSet<>(configured);
    this.users.add(omUser);
    this.everyone = configured.contains("*");
  }

  /** Whether {@code user} administers the OM; nobody ("", a caller the OM cannot name) never does. */
  public boolean contains(String user) {
    return !user.isEmpty() && (everyone || users.contains(user));
  }

  /**
   * Fails unless the current caller is {@code user} or an administrator. The S3 gateway is neither for anyone: an
   * S3 request's signature proves its user for what the request asks (data, not secrets or administration), and the
   * gateway's certificate alone proves nobody, so the gateway reads or changes nobody's secret.
   */
  void checkActsFor(String user, String what) throws OmException {
    refuseGateway(what);
    String caller = Callers.current();
    if (caller.isEmpty() || !caller.equals(user) && !contains(caller)) {
      throw new OmException(OmResult.PERMISSION_DENIED, "user '" + caller + "' may not " + what + " of user '"
          + user + "': only the user itself and the OM's administrators (ozone.administrators) may");
    }
  }

  /** Fails unless the current caller is an administrator (never the S3 gateway). */
  void checkAdministrator(String what) throws OmException {
    refuseGateway(what);
    String caller = Callers.current();
    if (!contains(caller)) {
      throw new OmException(OmResult.PERMISSION_DENIED, "user '" + caller + "' may not " + what + ": only the OM's"
          + " administrators (ozone.administrators) may");
    }
  }

  private static void refuseGateway(String what) throws OmException {
    if (Callers.authentication() == Authentication.GATEWAY) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the S3 gateway may not " + what + ": an S3 request's"
          + " signature proves its user for S3's operations only");
    }
  }
}
