package org.tropos.common.security;

import java.util.Optional;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

/**
 * Who a service certificate names: its role (OU), the host it runs on (CN) and the cluster (O), so a peer's
 * certificate says what it may do and for which cluster.
 */
public record CertificateSubject(ServiceRole role, String host, String clusterId) {
  public CertificateSubject {
    if (host.isBlank() || clusterId.isBlank()) {
      throw new IllegalArgumentException("a certificate names a host and a cluster");
    }
  }

  public X500Name toX500Name() {
    return new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, host).addRDN(BCStyle.OU, role.subjectName())
        .addRDN(BCStyle.O, clusterId).build();
  }

  /** The subject {@code name} states, if it states exactly one known role, a host and a cluster. */
  public static Optional<CertificateSubject> of(X500Name name) {
    Optional<String> host = single(name, BCStyle.CN);
    Optional<String> role = single(name, BCStyle.OU);
    Optional<String> cluster = single(name, BCStyle.O);
    if (host.isEmpty() || role.isEmpty() || cluster.isEmpty() || host.get().isBlank() || cluster.get().isBlank()) {
      return Optional.empty();
    }
    return ServiceRole.ofSubjectName(role.get()).map(r -> new CertificateSubject(r, host.get(), cluster.get()));
  }

  private static Optional<String> single(X500Name name, ASN1ObjectIdentifier type) {
    RDN[] rdns = name.getRDNs(type);
    if (rdns.length != 1 || rdns[0].isMultiValued()) {
      return Optional.empty();
    }
    return Optional.of(IETFUtils.valueToString(rdns[0].getFirst().getValue()));
  }
}
