package org.tropos.om.rpc;

import java.util.Set;
import java.util.function.Predicate;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.Administration;
import org.tropos.common.security.Authentication;
import org.tropos.proto.om.OmResult;

/**
 * Who administers the OM ({@link Administration}: the user running the OM, {@code ozone.administrators} and
 * {@code ozone.administrators.groups}, as in Ozone). A client's configuration has no say: the OM decides from the
 * caller's user ({@link Callers}).
 *
 * <p>Immutable; thread-safe.
 */
public final class Administrators {
  private final Administration administration;

  public Administrators(Administration administration) {
    this.administration = administration;
  }

  /** Whether {@code user} administers the OM; nobody ("", a caller the OM cannot name) never does. */
  public boolean contains(String user) {
    return administration.administers(user);
  }

  /** Whether {@code user} reads what administrators read ({@code ozone.readonly.administrators} too). */
  boolean reads(String user) {
    return administration.reads(user);
  }

  Set<String> groupsOf(String user) {
    return administration.groupsOf(user);
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
    require(this::contains, what, "the OM's administrators (ozone.administrators)");
  }

  /** Fails unless the current caller reads what administrators read (never the S3 gateway). */
  void checkReader(String what) throws OmException {
    require(this::reads, what, "the OM's administrators and read-only administrators"
        + " (ozone.readonly.administrators)");
  }

  private static void require(Predicate<String> allowed, String what, String who) throws OmException {
    refuseGateway(what);
    String caller = Callers.current();
    if (!allowed.test(caller)) {
      throw new OmException(OmResult.PERMISSION_DENIED, "user '" + caller + "' may not " + what + ": only " + who
          + " may");
    }
  }

  private static void refuseGateway(String what) throws OmException {
    if (Callers.authentication() == Authentication.GATEWAY) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the S3 gateway may not " + what + ": an S3 request's"
          + " signature proves its user for S3's operations only");
    }
  }
}
