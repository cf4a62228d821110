package org.tropos.scm.rpc;

import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.Administration;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.proto.scm.ScmResult;

/**
 * Who may change the cluster through SCM's admin service (decommission, maintenance, pipelines) in a secure
 * cluster: a user whose certificate or Kerberos ticket names an administrator ({@link Administration}: the user
 * running SCM, {@code ozone.administrators}, {@code ozone.administrators.groups}); and who may read its views
 * (datanodes, pipelines, containers): those and the read-only administrators. A daemon's certificate makes no one
 * an administrator, whatever user its calls name. A cluster that is not secure has no authenticated callers, and
 * anyone may, as before.
 *
 * <p>Thread-safe.
 */
public final class ScmAdministrators {
  private final boolean enforced;
  private final Administration administration;

  /** @param enforced whether callers are authenticated (a secure cluster) */
  public ScmAdministrators(boolean enforced, Administration administration) {
    this.enforced = enforced;
    this.administration = administration;
  }

  /** Fails with PERMISSION_DENIED unless the caller is an administrator. */
  void check(String what) throws ScmException {
    if (enforced && !administration.administers(user())) {
      throw denied(what, "administrators (ozone.administrators, ozone.administrators.groups and the user running"
          + " SCM");
    }
  }

  /**
   * Fails with PERMISSION_DENIED unless the caller is an administrator or a read-only one, or an SCM (its web
   * console reads the views through this service as SCM).
   */
  void checkReader(String what) throws ScmException {
    CertificateSubject peer = PeerRoles.PEER.get();
    boolean scm = peer != null && peer.role() == ServiceRole.SCM;
    if (enforced && !scm && !administration.reads(user())) {
      throw denied(what, "administrators and read-only administrators (ozone.readonly.administrators[.groups]");
    }
  }

  /** The caller's user as a user's certificate or Kerberos ticket proves it; "" for any other caller. */
  private static String user() {
    CertificateSubject peer = PeerRoles.PEER.get();
    return peer != null ? (peer.role() == ServiceRole.USER ? peer.name() : "")
        : Callers.authentication() == Authentication.KERBEROS ? Callers.current() : "";
  }

  private static ScmException denied(String what, String who) {
    CertificateSubject peer = PeerRoles.PEER.get();
    String user = user();
    String caller = !user.isEmpty() ? "user '" + user + "'" : peer == null ? "a caller without a certificate or"
        + " Kerberos ticket" : "the " + peer.role().subjectName() + " " + peer.name();
    return new ScmException(ScmResult.PERMISSION_DENIED, caller + " may not " + what + ": only SCM's " + who
        + ", proven by certificate or Kerberos) may");
  }
}
