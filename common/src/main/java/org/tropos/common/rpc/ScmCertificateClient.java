package org.tropos.common.rpc;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateSigner;
import org.tropos.common.security.PemFiles;
import org.tropos.proto.scm.GetCaCertificateRequest;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;
import org.tropos.proto.scm.SignCertificateRequest;

/**
 * A daemon's first certificate from SCM, admitted by a bootstrap token. The CA SCM shows must be the one the token
 * pins (its SHA-256), and the certificate SCM answers must chain to it, so an impostor at SCM's address gains
 * nothing: the daemon trusts no CA it was not told of out of band.
 */
public final class ScmCertificateClient implements CertificateSigner {
  private final ScmChannel scm;
  private final String token;

  public ScmCertificateClient(ScmChannel scm, String token) {
    this.scm = scm;
    this.token = token.strip();
  }

  @Override
  public List<X509Certificate> sign(PKCS10CertificationRequest request) throws IOException {
    String pinned = BootstrapTokens.pinnedCa(token).orElseThrow(() -> new IOException("the bootstrap token is"
        + " malformed: mint one with `tropos admin cert token`"));
    try {
      X509Certificate ca = PemFiles.certificate(scm.call(() -> scm.stub(ScmSecurityServiceGrpc::newBlockingStub)
          .getCaCertificate(GetCaCertificateRequest.getDefaultInstance())).getCertificatePem());
      if (!BootstrapTokens.fingerprint(ca).equals(pinned)) {
        throw new IOException("SCM shows a CA other than the one the bootstrap token pins: not trusted");
      }
      List<X509Certificate> chain = PemFiles.certificates(scm.call(() -> scm.stub(
          ScmSecurityServiceGrpc::newBlockingStub).signCertificate(SignCertificateRequest.newBuilder()
              .setCsrPem(PemFiles.toPem(request)).setBootstrapToken(token).build())).getCertificateChainPem());
      if (chain.isEmpty() || !chain.get(chain.size() - 1).equals(ca)) {
        throw new IOException("SCM answered a certificate chain that does not end at the pinned CA");
      }
      chain.get(0).verify(ca.getPublicKey());
      return chain;
    } catch (ScmException e) {
      throw new IOException("SCM did not sign the certificate request: " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IOException("the certificate SCM answered is not signed by the pinned CA: " + e.getMessage(), e);
    }
  }
}
