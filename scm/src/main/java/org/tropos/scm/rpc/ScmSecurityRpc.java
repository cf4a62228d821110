package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.RequestRefusedException;
import org.tropos.proto.scm.GetCaCertificateRequest;
import org.tropos.proto.scm.GetCaCertificateResponse;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;
import org.tropos.proto.scm.SignCertificateRequest;
import org.tropos.proto.scm.SignCertificateResponse;
import org.tropos.scm.security.ScmCertificateAuthority;

/** SCM's certificate service: the CA's certificate, and first certificates for bootstrap tokens. */
public final class ScmSecurityRpc extends ScmSecurityServiceGrpc.ScmSecurityServiceImplBase {
  private final ScmCertificateAuthority ca;

  public ScmSecurityRpc(ScmCertificateAuthority ca) {
    this.ca = ca;
  }

  @Override
  public void getCaCertificate(GetCaCertificateRequest request, StreamObserver<GetCaCertificateResponse> out) {
    ScmCalls.respond("GetCaCertificate", out, () -> GetCaCertificateResponse.newBuilder()
        .setCertificatePem(PemFiles.toPem(ca.root())).build());
  }

  @Override
  public void signCertificate(SignCertificateRequest request, StreamObserver<SignCertificateResponse> out) {
    ScmCalls.respond("SignCertificate", out, () -> {
      PKCS10CertificationRequest csr;
      try {
        csr = PemFiles.request(request.getCsrPem());
      } catch (IOException | RuntimeException e) {
        throw ScmCalls.invalid("csr_pem is not a PEM certificate signing request");
      }
      try {
        StringBuilder chain = new StringBuilder();
        for (X509Certificate certificate : ca.signFirst(csr, request.getBootstrapToken())) {
          chain.append(PemFiles.toPem(certificate));
        }
        return SignCertificateResponse.newBuilder().setCertificateChainPem(chain.toString()).build();
      } catch (RequestRefusedException e) {
        throw new ScmException(ScmResult.CERTIFICATE_REFUSED, e.getMessage());
      } catch (GeneralSecurityException | IOException e) {
        throw new ScmException(ScmResult.INTERNAL_ERROR, "signing the certificate: " + e.getMessage());
      }
    });
  }
}
