package org.tropos.scm.rpc;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.proto.scm.ScmResult;

/**
 * Who may change the cluster through SCM's admin service (decommission, maintenance, pipelines) in a secure
 * cluster: a user whose certificate or Kerberos ticket names one of {@code ozone.administrators} or the user
 * running SCM. A daemon's certificate makes no one an administrator, whatever user its calls name. A cluster that
 * is not secure has no authenticated callers, and anyone may, as before.
 *
 * <p>Immutable; thread-safe.
 */
public final class ScmAdministrators {
  private final boolean enforced;
  private final Set<String> users;
  private final boolean everyone;

  /**
   * @param enforced whether callers are authenticated (a secure cluster)
   * @param configured {@code ozone.administrators}
   */
  public ScmAdministrators(boolean enforced, List<String> configured) {
    this.enforced = enforced;
    this.users = new HashSet<>(configured);
    this.users.add(Callers.localUser());
    this.everyone = configured.contains("*");
  }

  /** Fails with PERMISSION_DENIED unless the caller is an administrator. */
  void check(String what) throws ScmException {
    if (!enforced) {
      return;
    }
    CertificateSubject peer = PeerRoles.PEER.get();
    String user = peer != null ? (peer.role() == ServiceRole.USER ? peer.name() : "")
        : Callers.authentication() == Authentication.KERBEROS ? Callers.current() : "";
    if (!user.isEmpty() && (everyone || users.contains(user))) {
      return;
    }
    String caller = !user.isEmpty() ? "user '" + user + "'" : peer == null ? "a caller without a certificate or"
        + " Kerberos ticket" : "the " + peer.role().subjectName() + " " + peer.name();
    throw new ScmException(ScmResult.PERMISSION_DENIED, caller + " may not " + what + ": only SCM's administrators"
        + " (ozone.administrators and the user running SCM, proven by certificate or Kerberos) may");
  }
}
