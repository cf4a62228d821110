package org.tropos.common.security;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * Who a certificate of the cluster names: its role (OU), who holds it (CN: the host a daemon runs on, or a user's
 * name) and the cluster (O), so a peer's certificate says what it may do and for which cluster.
 */
public record CertificateSubject(ServiceRole role, String name, String clusterId) {
  private static final String SESSION_VALUE = CertificateSubject.class.getName();

  public CertificateSubject {
    if (name.isBlank() || clusterId.isBlank()) {
      throw new IllegalArgumentException("a certificate names its holder and a cluster");
    }
  }

  public X500Name toX500Name() {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, name).addRDN(BCStyle.OU, role.subjectName())
        .addRDN(BCStyle.O, clusterId).build();
  }

  /** The subject {@code x500} states, if it states exactly one known role, a holder and a cluster. */
  public static Optional<CertificateSubject> of(X500Name x500) {
    Optional<String> holder = single(x500, BCStyle.CN);
    Optional<String> role = single(x500, BCStyle.OU);
    Optional<String> cluster = single(x500, BCStyle.O);
    if (holder.isEmpty() || role.isEmpty() || cluster.isEmpty() || holder.get().isBlank()
        || cluster.get().isBlank()) {
      return Optional.empty();
    }
    return ServiceRole.ofSubjectName(role.get()).map(r -> new CertificateSubject(r, holder.get(), cluster.get()));
  }

  /**
   * The subject of the certificate a TLS peer showed and the handshake verified, if any; parsed once per session
   * and kept in it, since every call over a connection asks again.
   */
  @SuppressWarnings("unchecked")
  public static Optional<CertificateSubject> ofPeer(SSLSession session) {
    if (session == null) {
      return Optional.empty();
    }
    Object known = session.getValue(SESSION_VALUE);
    if (known instanceof Optional<?> subject) {
      return (Optional<CertificateSubject>) subject;
    }
    Optional<CertificateSubject> subject = parsePeer(session);
    session.putValue(SESSION_VALUE, subject);
    return subject;
  }

  private static Optional<CertificateSubject> parsePeer(SSLSession session) {
    try {
      Certificate[] chain = session.getPeerCertificates();
      if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
        return Optional.empty();
      }
      return of(X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()));
    } catch (SSLPeerUnverifiedException e) {
      return Optional.empty();
    }
  }

  private static Optional<String> single(X500Name x500, ASN1ObjectIdentifier type) {
    RDN[] rdns = x500.getRDNs(type);
    if (rdns.length != 1 || rdns[0].isMultiValued()) {
      return Optional.empty();
    }
    return Optional.of(IETFUtils.valueToString(rdns[0].getFirst().getValue()));
  }
}
