package org.tropos.common.security;

import io.grpc.Metadata;
import java.io.IOException;
import java.security.PrivilegedActionException;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosPrincipal;
import org.ietf.jgss.GSSContext;
import org.ietf.jgss.GSSException;
import org.ietf.jgss.GSSManager;
import org.ietf.jgss.Oid;

/**
 * A user's Kerberos tickets as a call credential: each call carries a fresh AP-REQ (GSS-API's first and, without
 * mutual authentication, only token) for the principal of the server it goes to. TLS already proves the server to
 * the client and hides the ticket from the path. The ticket for each service is fetched from the KDC once and kept
 * in the subject.
 */
public final class KerberosCredential implements UserCredential {
  /** GSS-API's Kerberos mechanism and principal name type (RFC 1964). */
  static final Oid KERBEROS_MECHANISM = oid("1.2.840.113554.1.2.2");
  private static final Oid PRINCIPAL_NAME = oid("1.2.840.113554.1.2.2.1");

  private final Subject subject;
  private final Map<ServiceRole, String> servicePrincipals;

  /**
   * The tickets of {@code subject}, for servers whose principals {@code servicePrincipals} give by role (Hadoop's
   * {@code om/_HOST@REALM}, {@code _HOST} being the host the call goes to).
   */
  public KerberosCredential(Subject subject, Map<ServiceRole, String> servicePrincipals) {
    this.subject = subject;
    this.servicePrincipals = Map.copyOf(servicePrincipals);
  }

  /** The first component of the subject's principal, the user servers map it to in their realm. */
  @Override
  public Optional<String> user() {
    return subject.getPrincipals(KerberosPrincipal.class).stream().findFirst().flatMap(p -> KerberosPrincipals
        .shortName(p.getName(), p.getRealm()));
  }

  @Override
  public void attach(Metadata headers, ServiceRole role, String host) throws IOException {
    String pattern = servicePrincipals.get(role);
    if (pattern == null || pattern.isBlank()) {
      return;
    }
    String service = KerberosPrincipals.resolve(pattern, host);
    try {
      headers.put(CredentialHeaders.KERBEROS, Subject.doAs(subject, (PrivilegedExceptionAction<byte[]>) () ->
          firstToken(service, PRINCIPAL_NAME, KERBEROS_MECHANISM)));
    } catch (PrivilegedActionException e) {
      throw new IOException("no Kerberos ticket for " + service + ": " + e.getException().getMessage(),
          e.getException());
    }
  }

  /**
   * The first and only token of a context with {@code service} (named as {@code nameType} says) under
   * {@code mechanism}, for the subject the caller runs as: no mutual authentication is awaited, no credential
   * delegated; the server's acceptance is its answer.
   */
  static byte[] firstToken(String service, Oid nameType, Oid mechanism) throws GSSException {
    GSSManager manager = GSSManager.getInstance();
    GSSContext context = manager.createContext(manager.createName(service, nameType), mechanism, null,
        GSSContext.DEFAULT_LIFETIME);
    try {
      context.requestMutualAuth(false);
      context.requestCredDeleg(false);
      return context.initSecContext(new byte[0], 0, 0);
    } finally {
      context.dispose();
    }
  }

  static Oid oid(String dotted) {
    try {
      return new Oid(dotted);
    } catch (GSSException e) {
      throw new IllegalStateException("not an OID: " + dotted, e);
    }
  }
}
