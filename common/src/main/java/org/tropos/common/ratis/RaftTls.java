package org.tropos.common.ratis;

import java.util.EnumSet;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLException;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.proto.grpc.RaftClientProtocolServiceGrpc;
import org.apache.ratis.thirdparty.io.grpc.Grpc;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.ClientAuth;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.OpenSsl;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContextBuilder;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslProvider;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;

/**
 * TLS for Ratis's gRPC transport in a secure cluster, as Ratis {@link Parameters}: what a member of a group shows
 * and whom it admits, and what a client of a group trusts. Host names are not checked (see ClusterTrust): the role
 * in a certificate only the cluster's CA signs says who may serve or join.
 */
public final class RaftTls {
  private RaftTls() {
  }

  /**
   * A member of a group whose every port speaks mutual TLS: it shows its certificate and admits only peers whose
   * certificates name {@code memberRole}, as members or as clients (an OM or SCM group, which only its members
   * call). Plaintext (empty parameters) when the cluster runs without security.
   */
  public static Parameters closedGroupMember(TransportSecurity transport, ServiceRole memberRole) {
    Parameters parameters = new Parameters();
    if (transport.tls()) {
      GrpcConfigKeys.TLS.setConf(parameters, new GrpcTlsConfig(ownKey(transport),
          transport.trustManager(memberRole), true));
    }
    return parameters;
  }

  /**
   * A member of groups that clients of the cluster write to (a datanode's pipelines): between members mutual TLS
   * as {@link #closedGroupMember}; Raft's client service takes any caller over TLS, with or without a certificate
   * (what a client may write, its block tokens say); the peer and admin services, which append entries, vote and
   * add or remove groups, admit only a {@code memberRole} certificate of the cluster, per call.
   */
  public static Parameters openGroupMember(TransportSecurity transport, ServiceRole memberRole) {
    Parameters parameters = closedGroupMember(transport, memberRole);
    if (transport.tls()) {
      GrpcConfigKeys.Server.setServicesCustomizer(parameters, new OpenClientService(transport, memberRole));
    }
    return parameters;
  }

  /**
   * A client of groups whose members hold certificates of {@code memberRole}: TLS trusting only such members,
   * showing this process's certificate when it has one.
   */
  public static Parameters client(TransportSecurity transport, ServiceRole memberRole) {
    Parameters parameters = new Parameters();
    if (transport.tls()) {
      KeyManager own = transport.keyManager().orElse(null);
      GrpcConfigKeys.TLS.setConf(parameters, new GrpcTlsConfig(own, transport.trustManager(memberRole),
          own != null));
    }
    return parameters;
  }

  private static KeyManager ownKey(TransportSecurity transport) {
    return transport.keyManager().orElseThrow(() -> new IllegalArgumentException(
        "a member of a secure Raft group needs a certificate of the cluster"));
  }

  /**
   * Makes the port that serves Raft's client service ask for a certificate without requiring one (any role of the
   * cluster, checked against its root) and admit every other service only for {@code memberRole}.
   */
  private record OpenClientService(TransportSecurity transport, ServiceRole memberRole)
      implements GrpcServices.Customizer {
    @Override
    public NettyServerBuilder customize(NettyServerBuilder builder, EnumSet<GrpcServices.Type> types) {
      if (!types.contains(GrpcServices.Type.CLIENT)) {
        return builder;
      }
      SslContextBuilder context = SslContextBuilder.forServer(ownKey(transport))
          .trustManager(transport.trustManager(ServiceRole.values())).clientAuth(ClientAuth.OPTIONAL);
      try {
        builder.sslContext(GrpcSslContexts.configure(context, OpenSsl.isAvailable() ? SslProvider.OPENSSL
            : SslProvider.JDK).build());
      } catch (SSLException e) {
        throw new IllegalStateException("cannot build the TLS context of the Raft port", e);
      }
      return builder.intercept(new MembersOnly(memberRole));
    }
  }

  /** Refuses a call to any service but Raft's client service unless the peer's certificate names the role. */
  private record MembersOnly(ServiceRole memberRole) implements ServerInterceptor {
    private static final Set<String> OPEN = Set.of(RaftClientProtocolServiceGrpc.SERVICE_NAME);

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      String service = call.getMethodDescriptor().getServiceName();
      if (OPEN.contains(service) || CertificateSubject.ofPeer(call.getAttributes().get(
          Grpc.TRANSPORT_ATTR_SSL_SESSION)).filter(peer -> peer.role() == memberRole).isPresent()) {
        return next.startCall(call, headers);
      }
      call.close(Status.PERMISSION_DENIED.withDescription(service + " admits only a " + memberRole.subjectName()
          + " certificate of the cluster"), new Metadata());
      return new ServerCall.Listener<>() {
      };
    }
  }
}
