package org.tropos.common.security;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * Admits a call only from a peer whose TLS certificate names a role the called service accepts, in this cluster:
 * the datanode service takes datanodes, the block service OMs, and so on. The peer's subject is then known to the
 * handler ({@link #PEER}). A call without TLS, without a certificate, or from another role is refused before
 * any handler runs.
 */
public final class PeerRoles implements ServerInterceptor {
  /** The authenticated peer of the call being handled. */
  public static final Context.Key<CertificateSubject> PEER = Context.key("tropos-peer");

  private final Map<String, Set<ServiceRole>> admittedByService;
  private final String clusterId;

  /** {@code admittedByService}: the roles each gRPC service (by its full name) admits; other services none. */
  public PeerRoles(Map<String, Set<ServiceRole>> admittedByService, String clusterId) {
    this.admittedByService = Map.copyOf(admittedByService);
    this.clusterId = clusterId;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    String service = call.getMethodDescriptor().getServiceName();
    Optional<CertificateSubject> peer = peer(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
    if (peer.isEmpty()) {
      call.close(Status.UNAUTHENTICATED.withDescription("a call to " + service + " needs TLS with a certificate"
          + " of the cluster"), new Metadata());
      return new ServerCall.Listener<>() {
      };
    }
    Set<ServiceRole> admitted = admittedByService.getOrDefault(service, Set.of());
    if (!admitted.contains(peer.get().role()) || !peer.get().clusterId().equals(clusterId)) {
      call.close(Status.PERMISSION_DENIED.withDescription(service + " does not admit " + peer.get().role()
          .subjectName() + " " + peer.get().host() + " of cluster " + peer.get().clusterId()), new Metadata());
      return new ServerCall.Listener<>() {
      };
    }
    return Contexts.interceptCall(Context.current().withValue(PEER, peer.get()), call, headers, next);
  }

  private static Optional<CertificateSubject> peer(SSLSession session) {
    if (session == null) {
      return Optional.empty();
    }
    try {
      Certificate[] chain = session.getPeerCertificates();
      if (chain.length == 0 || !(chain[0] instanceof X509Certificate certificate)) {
        return Optional.empty();
      }
      return CertificateSubject.of(X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()));
    } catch (SSLPeerUnverifiedException e) {
      return Optional.empty();
    }
  }
}
