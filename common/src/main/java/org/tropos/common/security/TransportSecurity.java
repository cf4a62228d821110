package org.tropos.common.security;

import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;

/**
 * How one process's gRPC connections are protected, handed to each server and channel it makes (never a global):
 * in plaintext (security off), or with TLS trusting only the cluster's CA, showing the process's certificate when
 * it has one. A daemon has one and speaks mutual TLS; a user's client shows its own, or trusts the root, shows
 * none and proves its user with each call ({@link UserCredential}: Kerberos, a delegation token); a daemon's first
 * contact trusts the root its bootstrap token pins.
 */
public final class TransportSecurity {
  private static final TransportSecurity PLAINTEXT = new TransportSecurity(Optional.empty(), Optional.empty(), "",
      Optional.empty());

  private final Optional<ServiceCertificates> certificates;
  private final Optional<X509Certificate> root;
  private final String pinnedFingerprint;
  private final Optional<UserCredential> credential;
  private final Map<ServiceRole, SslContext> clientContexts = new ConcurrentHashMap<>();
  private volatile SslContext serverContext;
  private final Map<ServiceRole, SSLContext> socketContexts = new ConcurrentHashMap<>();

  private TransportSecurity(Optional<ServiceCertificates> certificates, Optional<X509Certificate> root,
      String pinnedFingerprint, Optional<UserCredential> credential) {
    this.certificates = certificates;
    this.root = root;
    this.pinnedFingerprint = pinnedFingerprint;
    this.credential = credential;
  }

  /** No TLS: today's behaviour with {@code ozone.security.enabled=false}. */
  public static TransportSecurity plaintext() {
    return PLAINTEXT;
  }

  /** Mutual TLS as the daemon that {@code certificates} identify, trusting the root they chain to. */
  public static TransportSecurity mutual(ServiceCertificates certificates) {
    return new TransportSecurity(Optional.of(certificates), Optional.of(certificates.identity().root()), "",
        Optional.empty());
  }

  /** TLS to servers of the cluster whose root is {@code root}, showing no certificate. */
  public static TransportSecurity trusting(X509Certificate root) {
    return new TransportSecurity(Optional.empty(), Optional.of(root), "", Optional.empty());
  }

  /** TLS to servers of the cluster whose root is {@code root}, proving the user with {@code credential}. */
  public static TransportSecurity trusting(X509Certificate root, UserCredential credential) {
    return new TransportSecurity(Optional.empty(), Optional.of(root), "", Optional.of(credential));
  }

  /** TLS to servers whose CA has the SHA-256 {@code fingerprint} (a bootstrap token's pin), showing none. */
  public static TransportSecurity pinning(String fingerprint) {
    return new TransportSecurity(Optional.empty(), Optional.empty(), fingerprint, Optional.empty());
  }

  public boolean tls() {
    return this != PLAINTEXT;
  }

  /** The daemon's key and certificates, if it has them. */
  public Optional<ServiceCertificates> certificates() {
    return certificates;
  }

  /** What proves this process's user with each call, when it has no certificate. */
  public Optional<UserCredential> credential() {
    return credential;
  }

  /** The user this process proves to the servers it calls, when it proves one (a user's certificate, Kerberos). */
  public Optional<String> provenUser() {
    Optional<String> certified = subject().filter(s -> s.role() == ServiceRole.USER).map(CertificateSubject::name);
    return certified.isPresent() ? certified : credential.flatMap(UserCredential::user);
  }

  /** Who this process is to the servers it calls, if it has a certificate. */
  public Optional<CertificateSubject> subject() {
    return certificates.map(ServiceCertificates::subject);
  }

  /**
   * What shows this daemon's certificate in a TLS handshake (its current one at each), for transports that take a
   * JDK key manager (Ratis); empty without a certificate.
   */
  public Optional<KeyManager> keyManager() {
    return certificates.map(own -> new CurrentIdentityKeyManager(own::identity));
  }

  /** What trusts only peers of the cluster holding a certificate of one of {@code roles}, for such transports. */
  public TrustManager trustManager(ServiceRole... roles) {
    return root.map(r -> ClusterTrust.of(r, Set.of(roles))).orElseGet(() -> ClusterTrust.pinned(pinnedFingerprint,
        Set.of(roles)));
  }

  /** The context a server of this daemon listens with. */
  public SslContext serverContext() throws SSLException {
    ServiceCertificates own = certificates.orElseThrow(() -> new IllegalStateException("a server needs a"
        + " certificate of the cluster to listen with TLS"));
    if (serverContext == null) {
      synchronized (this) {
        if (serverContext == null) {
          serverContext = TlsContexts.server(own::identity);
        }
      }
    }
    return serverContext;
  }

  /**
   * The JDK context of a socket (not gRPC) to a server that must hold a certificate of {@code serverRole}, showing
   * this process's certificate if it has one.
   */
  public SSLContext socketContext(ServiceRole serverRole) throws SSLException {
    SSLContext known = socketContexts.get(serverRole);
    if (known != null) {
      return known;
    }
    try {
      SSLContext made = SSLContext.getInstance("TLS");
      made.init(keyManager().map(k -> new KeyManager[] {k}).orElse(null),
          new TrustManager[] {trustManager(serverRole)}, null);
      SSLContext raced = socketContexts.putIfAbsent(serverRole, made);
      return raced != null ? raced : made;
    } catch (GeneralSecurityException e) {
      throw new SSLException("cannot set up TLS to a " + serverRole.subjectName(), e);
    }
  }

  /**
   * The JDK context of an HTTPS server of this daemon (its status port): it shows this daemon's certificate and
   * trusts a client's certificate of any role of the cluster.
   */
  public SSLContext httpsServerContext() throws SSLException {
    KeyManager own = keyManager().orElseThrow(() -> new IllegalStateException("a server needs a certificate of the"
        + " cluster to listen with TLS"));
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {own}, new TrustManager[] {trustManager(ServiceRole.values())}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new SSLException("cannot set up the HTTPS status port", e);
    }
  }

  /** The context of a channel to a server that must hold a certificate of {@code serverRole}. */
  public SslContext clientContext(ServiceRole serverRole) throws SSLException {
    SslContext known = clientContexts.get(serverRole);
    if (known != null) {
      return known;
    }
    SslContext made = TlsContexts.client(certificates.map(c -> c::identity), trustManager(serverRole));
    SslContext raced = clientContexts.putIfAbsent(serverRole, made);
    return raced != null ? raced : made;
  }
}
