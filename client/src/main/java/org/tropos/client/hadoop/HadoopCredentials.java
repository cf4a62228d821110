package org.tropos.client.hadoop;

import java.io.IOException;
import java.security.AccessController;
import java.security.PrivilegedExceptionAction;
import java.util.Optional;
import javax.security.auth.Subject;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.security.DelegationTokenCredential;
import org.tropos.common.security.KerberosCredential;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;

/**
 * How a Hadoop program's client proves its user to a secure cluster, from what Hadoop gives the current user: a
 * certificate configured for Tropos; else a Tropos delegation token for this OM among the user's tokens (a task of
 * a job: YARN hands them over in {@code HADOOP_TOKEN_FILE_LOCATION}, Spark passes them on); else the user's
 * Kerberos login (kinit, or a keytab login of the program); else nothing, and the OM treats the caller as nobody.
 */
final class HadoopCredentials {
  private HadoopCredentials() {
  }

  /**
   * The transport to the OM (or OM service) {@code service}; {@code tokens} false for the calls a token may not
   * make (getting and renewing tokens).
   */
  static TransportSecurity transport(Configuration conf, String service, boolean tokens) throws IOException {
    if (!conf.get(SecurityKeys.SECURITY_ENABLED) || !conf.get(SecurityKeys.IDENTITY_FILE).isBlank()) {
      return SecuritySettings.userTransport(conf);
    }
    UserGroupInformation user = UserGroupInformation.getCurrentUser();
    Optional<Token<?>> token = tokens ? tokenFor(user, service) : Optional.empty();
    if (token.isPresent()) {
      return TransportSecurity.trusting(SecuritySettings.clusterRoot(conf), new DelegationTokenCredential(
          TroposTokenIdentifier.toTropos(token.get())));
    }
    // A proxy user (impersonation) has no tickets of its own and is not supported: its calls prove nobody rather
    // than act as the service that impersonates it.
    if (user.hasKerberosCredentials()) {
      return TransportSecurity.trusting(SecuritySettings.clusterRoot(conf), new KerberosCredential(subjectOf(user),
          SecuritySettings.kerberosPrincipals(conf)));
    }
    return TransportSecurity.trusting(SecuritySettings.clusterRoot(conf));
  }

  private static Optional<Token<?>> tokenFor(UserGroupInformation user, String service) {
    Text wanted = new Text(service);
    return user.getTokens().stream().filter(t -> TroposTokenIdentifier.KIND.equals(t.getKind())
        && wanted.equals(t.getService())).findFirst().map(t -> (Token<?>) t);
  }

  /** The JAAS subject holding the user's Kerberos tickets. */
  @SuppressWarnings("removal")
  private static Subject subjectOf(UserGroupInformation user) throws IOException {
    try {
      return user.doAs((PrivilegedExceptionAction<Subject>) () -> Subject.getSubject(AccessController.getContext()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading the Kerberos login", e);
    }
  }
}
