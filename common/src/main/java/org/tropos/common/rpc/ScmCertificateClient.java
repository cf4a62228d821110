package org.tropos.common.rpc;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateRenewal;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.proto.scm.GetCaCertificateRequest;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;
import org.tropos.proto.scm.SignCertificateRequest;

/**
 * A daemon's certificates from SCM. The first is admitted by a bootstrap token: the CA SCM shows must be the one
 * the token pins (its SHA-256), so an impostor at SCM's address gains nothing, as the daemon trusts no CA it was
 * not told of out of band. A renewal is admitted by the daemon's current certificate over mutual TLS, and must
 * chain to the root that certificate chains to. Either way the answered chain is checked against that CA.
 */
public final class ScmCertificateClient implements CertificateIssuer {
  private final ScmChannel scm;
  private final String token;
  private final Optional<X509Certificate> knownRoot;
  private X509Certificate root;

  private ScmCertificateClient(ScmChannel scm, String token, Optional<X509Certificate> knownRoot) {
    this.scm = scm;
    this.token = token.strip();
    this.knownRoot = knownRoot;
  }

  /** A first certificate, admitted by {@code token}. */
  public ScmCertificateClient(ScmChannel scm, String token) {
    this(scm, token, Optional.empty());
  }

  /** A renewal over {@code scm}, a channel of mutual TLS as the daemon, from the CA of {@code root}. */
  public static ScmCertificateClient renewing(ScmChannel scm, X509Certificate root) {
    return new ScmCertificateClient(scm, "", Optional.of(root));
  }

  /**
   * A running daemon's renewals: each asked of SCM's client service at {@code scm} over a channel of its own,
   * as the daemon {@code transport} makes this process (mutual TLS), from the CA its certificate chains to.
   */
  public static Optional<CertificateRenewal> renewal(String daemon, List<HostPort> scm, TransportSecurity transport,
      Clock clock) {
    return transport.certificates().map(certificates -> CertificateRenewal.start(daemon, certificates, request -> {
      try (ScmChannel channel = new ScmChannel(scm, transport)) {
        return renewing(channel, certificates.identity().root()).sign(request);
      }
    }, clock));
  }

  @Override
  public String clusterId() throws IOException {
    X509Certificate ca = root();
    return CertificateSubject.of(X500Name.getInstance(ca.getSubjectX500Principal().getEncoded()))
        .map(CertificateSubject::clusterId).orElseThrow(() -> new IOException("the cluster's CA certificate ("
            + ca.getSubjectX500Principal() + ") names no cluster"));
  }

  @Override
  public List<X509Certificate> sign(PKCS10CertificationRequest request) throws IOException {
    X509Certificate ca = root();
    try {
      List<X509Certificate> chain = PemFiles.certificates(scm.call(() -> scm.stub(
          ScmSecurityServiceGrpc::newBlockingStub).signCertificate(SignCertificateRequest.newBuilder()
              .setCsrPem(PemFiles.toPem(request)).setBootstrapToken(token).build())).getCertificateChainPem());
      if (chain.isEmpty() || !chain.get(chain.size() - 1).equals(ca)) {
        throw new IOException("SCM answered a certificate chain that does not end at the cluster's CA");
      }
      chain.get(0).verify(ca.getPublicKey());
      return chain;
    } catch (ScmException e) {
      throw new IOException("SCM did not sign the certificate request: " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IOException("the certificate SCM answered is not signed by the cluster's CA: " + e.getMessage(), e);
    }
  }

  /** The CA: the one the daemon knows, else the one SCM shows if the token pins it. */
  private synchronized X509Certificate root() throws IOException {
    if (root != null) {
      return root;
    }
    if (knownRoot.isPresent()) {
      root = knownRoot.get();
      return root;
    }
    String pinned = BootstrapTokens.pinnedCa(token).orElseThrow(() -> new IOException("the bootstrap token is"
        + " malformed: mint one with `tropos admin cert token`"));
    try {
      X509Certificate shown = PemFiles.certificate(scm.call(() -> scm.stub(ScmSecurityServiceGrpc::newBlockingStub)
          .getCaCertificate(GetCaCertificateRequest.getDefaultInstance())).getCertificatePem());
      if (!BootstrapTokens.fingerprint(shown).equals(pinned)) {
        throw new IOException("SCM shows a CA other than the one the bootstrap token pins: not trusted");
      }
      root = shown;
      return root;
    } catch (ScmException e) {
      throw new IOException("SCM did not show its CA: " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IOException("the CA SCM shows cannot be read: " + e.getMessage(), e);
    }
  }
}
