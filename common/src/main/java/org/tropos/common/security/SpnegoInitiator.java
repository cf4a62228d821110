package org.tropos.common.security;

import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;
import org.ietf.jgss.GSSName;
import org.ietf.jgss.Oid;

/**
 * A daemon's Kerberos login as the HTTP client of a service that takes only Kerberos (SPNEGO, RFC 4559: a Hadoop
 * KMS with {@code hadoop.kms.authentication.type=kerberos}): each request carries an
 * {@code Authorization: Negotiate} header with a fresh token for {@code HTTP/<host>}. It logs in from its keytab at
 * its first use, not at start, so that a KDC down then does not keep the daemon from starting; and again once its
 * ticket-granting ticket is within {@link #RENEW_BEFORE} of its end, since the JDK does not renew it.
 *
 * <p>Thread-safe.
 */
public final class SpnegoInitiator {
  /** SPNEGO's mechanism (RFC 4178), which Hadoop's HTTP authentication expects. */
  private static final Oid SPNEGO = KerberosCredential.oid("1.3.6.1.5.5.2");
  static final Duration RENEW_BEFORE = Duration.ofMinutes(5);

  private final String principal;
  private final Path keytab;
  private final Clock clock;
  private Subject subject;
  private Instant loginEnds = Instant.MIN;

  SpnegoInitiator(String principal, Path keytab, Clock clock) {
    this.principal = principal;
    this.keytab = keytab;
    this.clock = clock;
  }

  /** Logs in as {@code service}'s principal, its {@code _HOST} this daemon's {@code host}, when first used. */
  public static SpnegoInitiator of(KerberosService service, String host) {
    return new SpnegoInitiator(KerberosPrincipals.resolve(service.principal(), host), service.keytab(),
        Clock.systemUTC());
  }

  public String principal() {
    return principal;
  }

  /** The value of an {@code Authorization} header for the HTTP service on {@code host}. */
  public String authorization(String host) throws IOException {
    String service = "HTTP@" + host;
    try {
      byte[] token = Subject.doAs(login(), (PrivilegedExceptionAction<byte[]>) () ->
          KerberosCredential.firstToken(service, GSSName.NT_HOSTBASED_SERVICE, SPNEGO));
      return "Negotiate " + Base64.getEncoder().encodeToString(token);
    } catch (PrivilegedActionException e) {
      throw new IOException("no Kerberos ticket of " + principal + " for HTTP/" + host + ": "
          + e.getException().getMessage(), e.getException());
    }
  }

  /** The subject logged in, logged in again first when its ticket-granting ticket ends soon. */
  private synchronized Subject login() throws IOException {
    Instant now = clock.instant();
    if (subject == null || !now.isBefore(loginEnds.minus(RENEW_BEFORE))) {
      subject = KerberosLogin.fromKeytab(principal, keytab, true);
      loginEnds = subject.getPrivateCredentials(KerberosTicket.class).stream()
          .filter(t -> t.getServer().getName().startsWith("krbtgt/")).map(t -> t.getEndTime().toInstant())
          .findFirst().orElse(now.plus(RENEW_BEFORE.multipliedBy(2)));
    }
    return subject;
  }
}
