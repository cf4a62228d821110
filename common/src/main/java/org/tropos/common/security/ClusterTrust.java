package org.tropos.common.security;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * Which TLS peers are of this cluster: a chain that validates up to the cluster's root, and, where a side knows
 * whom it called, whose certificate names an expected role (a datanode dialing SCM accepts only an SCM). Host
 * names are not checked: daemons are reached by whatever name or address the configuration gives, and the role
 * in a certificate only the cluster's CA signs is what says a peer may serve. Before a daemon has the root (its
 * first contact, with a bootstrap token) the root is the one the peer shows if its fingerprint is the pinned one.
 */
final class ClusterTrust extends X509ExtendedTrustManager {
  private final Optional<X509Certificate> root;
  private final String pinnedFingerprint;
  private final Set<ServiceRole> peerRoles;

  private ClusterTrust(Optional<X509Certificate> root, String pinnedFingerprint, Set<ServiceRole> peerRoles) {
    this.root = root;
    this.pinnedFingerprint = pinnedFingerprint;
    this.peerRoles = Set.copyOf(peerRoles);
  }

  /** Peers whose chain validates to {@code root}, of any role. */
  static ClusterTrust of(X509Certificate root) {
    return new ClusterTrust(Optional.of(root), "", Set.of(ServiceRole.values()));
  }

  /** Peers whose chain validates to {@code root} and whose certificate names one of {@code roles}. */
  static ClusterTrust of(X509Certificate root, Set<ServiceRole> roles) {
    return new ClusterTrust(Optional.of(root), "", roles);
  }

  /** Peers of {@code roles} whose chain ends at a root with the SHA-256 fingerprint {@code fingerprint}. */
  static ClusterTrust pinned(String fingerprint, Set<ServiceRole> roles) {
    return new ClusterTrust(Optional.empty(), fingerprint, roles);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return root.map(r -> new X509Certificate[] {r}).orElse(new X509Certificate[0]);
  }

  private void check(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("the peer showed no certificate");
    }
    X509Certificate anchor = root.isPresent() ? root.get() : pinnedRoot(chain);
    try {
      // The chain without the root: the path a validator builds from the leaf up to the trust anchor.
      X509Certificate[] path = chain[chain.length - 1].equals(anchor) ? Arrays.copyOf(chain, chain.length - 1)
          : chain;
      if (path.length == 0) {
        throw new CertificateException("the peer showed the cluster's root itself, not a certificate it signed");
      }
      PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(anchor, null)));
      parameters.setRevocationEnabled(false);
      CertPathValidator.getInstance("PKIX").validate(CertificateFactory.getInstance("X.509")
          .generateCertPath(Arrays.asList(path)), parameters);
    } catch (GeneralSecurityException e) {
      throw new CertificateException("the peer's certificate is not one of this cluster's CA: " + e.getMessage(), e);
    }
    Optional<CertificateSubject> subject = CertificateSubject.of(X500Name.getInstance(
        chain[0].getSubjectX500Principal().getEncoded()));
    if (subject.isEmpty() || !peerRoles.contains(subject.get().role())) {
      throw new CertificateException("the peer's certificate (" + chain[0].getSubjectX500Principal()
          + ") names none of the roles expected here: " + peerRoles);
    }
  }

  private X509Certificate pinnedRoot(X509Certificate[] chain) throws CertificateException {
    X509Certificate top = chain[chain.length - 1];
    try {
      if (!BootstrapTokens.fingerprint(top).equals(pinnedFingerprint)) {
        throw new CertificateException("the peer's CA is not the one the bootstrap token pins");
      }
    } catch (GeneralSecurityException e) {
      throw new CertificateException(e);
    }
    return top;
  }
}
