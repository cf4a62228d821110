package org.tropos.common.security;

import io.grpc.Metadata;
import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Optional;
import javax.security.auth.Subject;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSCredential;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;

/**
 * A server's side of {@link KerberosCredential}: it accepts an AP-REQ for its own principal with the key in its
 * keytab (the JDK's replay cache refuses one seen before) and maps the client's principal to a user
 * ({@link KerberosPrincipals#shortName}).
 */
public final class KerberosAcceptor implements UserAuthenticator {
  private final String principal;
  private final String realm;
  private final GSSCredential credential;

  private KerberosAcceptor(String principal, GSSCredential credential) {
    this.principal = principal;
    this.realm = KerberosPrincipals.realm(principal).orElseThrow(() -> new IllegalArgumentException(
        "a server's Kerberos principal names its realm: " + principal));
    this.credential = credential;
  }

  /** The acceptor of {@code principal} (its {@code _HOST} this server's {@code host}), keys from {@code keytab}. */
  public static KerberosAcceptor login(String principalPattern, String host, Path keytab) throws IOException {
    String principal = KerberosPrincipals.resolve(principalPattern, host);
    if (KerberosPrincipals.realm(principal).isEmpty()) {
      throw new IOException("the Kerberos principal " + principal + " names no realm (om/_HOST@EXAMPLE.COM)");
    }
    Subject subject = KerberosLogin.fromKeytab(principal, keytab, false);
    try {
      GSSCredential credential = Subject.doAs(subject, (PrivilegedExceptionAction<GSSCredential>) () ->
          GSSManager.getInstance().createCredential(null, GSSCredential.INDEFINITE_LIFETIME,
              KerberosCredential.KERBEROS_MECHANISM, GSSCredential.ACCEPT_ONLY));
      return new KerberosAcceptor(principal, credential);
    } catch (PrivilegedActionException e) {
      throw new IOException("cannot accept Kerberos tickets as " + principal + ": " + e.getException().getMessage(),
          e.getException());
    }
  }

  public String principal() {
    return principal;
  }

  @Override
  public Optional<AuthenticatedUser> authenticate(Metadata headers) throws AuthenticationException {
    byte[] ticket = headers.get(CredentialHeaders.KERBEROS);
    if (ticket == null) {
      return Optional.empty();
    }
    String client;
    GSSContext context = null;
    try {
      context = GSSManager.getInstance().createContext(credential);
      context.acceptSecContext(ticket, 0, ticket.length);
      if (!context.isEstablished()) {
        throw new AuthenticationException("the Kerberos ticket asks for mutual authentication, which " + principal
            + " does not do over TLS");
      }
      client = context.getSrcName().toString();
    } catch (GSSException e) {
      throw new AuthenticationException("the Kerberos ticket is not accepted by " + principal + ": "
          + e.getMessage(), e);
    } finally {
      dispose(context);
    }
    String user = client;
    return Optional.of(new AuthenticatedUser(KerberosPrincipals.shortName(client, realm).orElseThrow(() ->
        new AuthenticationException("the Kerberos principal " + user + " is not of realm " + realm)),
        Authentication.KERBEROS));
  }

  private static void dispose(GSSContext context) {
    if (context != null) {
      try {
        context.dispose();
      } catch (GSSException e) {
        // Nothing held that outlives the call.
      }
    }
  }
}
