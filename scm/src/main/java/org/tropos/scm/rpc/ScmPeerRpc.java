package org.tropos.scm.rpc;

import com.google.protobuf.ByteString;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.RequestRefusedException;
import org.tropos.proto.scm.JoinServiceRequest;
import org.tropos.proto.scm.JoinServiceResponse;
import org.tropos.proto.scm.ScmPeerServiceGrpc;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.db.ScmIdentity;
import org.tropos.scm.security.ScmCertificateAuthority;

/**
 * What an SCM of a secure HA service hands an SCM that joins it, on its datanode port, leading or not: the
 * cluster's identity and CA, for a bootstrap token for an SCM. The joining SCM reaches it over TLS to the CA its
 * token pins, so neither the token nor the answer goes to an impostor.
 */
public final class ScmPeerRpc extends ScmPeerServiceGrpc.ScmPeerServiceImplBase {
  private final ScmIdentity identity;
  private final ScmCertificateAuthority ca;

  public ScmPeerRpc(ScmIdentity identity, ScmCertificateAuthority ca) {
    this.identity = identity;
    this.ca = ca;
  }

  @Override
  public void joinService(JoinServiceRequest request, StreamObserver<JoinServiceResponse> out) {
    ScmCalls.respond("JoinService", out, () -> {
      try {
        ScmCertificateAuthority.Rows rows = ca.forJoiningScm(request.getBootstrapToken());
        return JoinServiceResponse.newBuilder().setClusterId(identity.clusterId()).setScmId(identity.scmId())
            .setCaCertificatePem(rows.rootPem()).setCaKeyPem(rows.keyPem())
            .setBootstrapSecret(ByteString.copyFrom(rows.secret())).build();
      } catch (RequestRefusedException e) {
        throw new ScmException(ScmResult.CERTIFICATE_REFUSED, e.getMessage());
      } catch (IOException e) {
        throw new ScmException(ScmResult.INTERNAL_ERROR, "reading the CA's rows: " + e.getMessage());
      }
    });
  }
}
