package org.tropos.scm.rpc;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.RequestRefusedException;
import org.tropos.common.security.SealingKey;
import org.tropos.proto.scm.GetCaCertificateRequest;
import org.tropos.proto.scm.GetCaCertificateResponse;
import org.tropos.proto.scm.GetSealingKeyRequest;
import org.tropos.proto.scm.GetSealingKeyResponse;
import org.tropos.proto.scm.GetSecretKeysRequest;
import org.tropos.proto.scm.GetSecretKeysResponse;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.ScmSecurityServiceGrpc;
import org.tropos.proto.scm.SignCertificateRequest;
import org.tropos.proto.scm.SignCertificateResponse;
import org.tropos.scm.security.ScmCertificateAuthority;
import org.tropos.scm.security.ScmSecretKeys;

/**
 * SCM's certificate service: the CA's certificate, first certificates for bootstrap tokens, renewals asked over
 * mutual TLS with the certificate being renewed, the block-token keys and the OMs' sealing key.
 */
public final class ScmSecurityRpc extends ScmSecurityServiceGrpc.ScmSecurityServiceImplBase {
  private final ScmCertificateAuthority ca;
  private final Optional<ScmSecretKeys> secretKeys;
  private final Optional<SealingKey> sealingKey;

  /**
   * @param secretKeys the block-token keys; empty when the cluster is not secure (there are none)
   * @param sealingKey the key the OMs seal S3 secrets with; empty when the cluster is not secure
   */
  public ScmSecurityRpc(ScmCertificateAuthority ca, Optional<ScmSecretKeys> secretKeys,
      Optional<SealingKey> sealingKey) {
    this.ca = ca;
    this.secretKeys = secretKeys;
    this.sealingKey = sealingKey;
  }

  /** Admitted for OMs only ({@link ScmAdmissions#clientPort}). */
  @Override
  public void getSealingKey(GetSealingKeyRequest request, StreamObserver<GetSealingKeyResponse> out) {
    ScmCalls.respond("GetSealingKey", out, () -> {
      SealingKey key = sealingKey.orElseThrow(() -> ScmCalls.invalid("the cluster is not secure: the OMs seal"
          + " nothing"));
      return GetSealingKeyResponse.newBuilder().setId(key.id()).setKey(ByteString.copyFrom(key.encoded())).build();
    });
  }

  /** Admitted for OMs and datanodes only ({@link ScmAdmissions#clientPort}). */
  @Override
  public void getSecretKeys(GetSecretKeysRequest request, StreamObserver<GetSecretKeysResponse> out) {
    ScmCalls.respond("GetSecretKeys", out, () -> {
      ScmSecretKeys keys = secretKeys.orElseThrow(() -> ScmCalls.invalid("the cluster is not secure: it has no"
          + " block tokens"));
      try {
        GetSecretKeysResponse.Builder response = GetSecretKeysResponse.newBuilder();
        keys.valid().forEach(k -> response.addKeys(k.toProto()));
        return response.build();
      } catch (IOException e) {
        throw new ScmException(ScmResult.INTERNAL_ERROR, e.getMessage());
      }
    });
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
      CertificateSubject peer = PeerRoles.PEER.get();
      try {
        List<X509Certificate> signed;
        if (!request.getBootstrapToken().isEmpty()) {
          signed = ca.signFirst(csr, request.getBootstrapToken());
        } else if (peer != null) {
          signed = ca.renew(csr, peer);
        } else {
          throw new RequestRefusedException("a first certificate needs a bootstrap token; a renewal is asked over"
              + " TLS with the certificate it renews");
        }
        StringBuilder chain = new StringBuilder();
        for (X509Certificate certificate : signed) {
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
