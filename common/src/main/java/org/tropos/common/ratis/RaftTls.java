package org.tropos.common.ratis;

import java.util.EnumSet;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLException;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.grpc.server.GrpcServices;
import org.apache.ratis.proto.grpc.AdminProtocolServiceGrpc;
import org.apache.ratis.proto.grpc.RaftClientProtocolServiceGrpc;
import org.apache.ratis.thirdparty.io.grpc.Grpc;
import org.apache.ratis.thirdparty.io.grpc.Metadata;
import org.apache.ratis.thirdparty.io.grpc.MethodDescriptor;
import org.apache.ratis.thirdparty.io.grpc.ServerCall;
import org.apache.ratis.thirdparty.io.grpc.ServerCallHandler;
import org.apache.ratis.thirdparty.io.grpc.ServerInterceptor;
import org.apache.ratis.thirdparty.io.grpc.Status;
import org.apache.ratis.thirdparty.io.grpc.netty.GrpcSslContexts;
import org.apache.ratis.thirdparty.io.grpc.netty.NettyServerBuilder;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.ClientAuth;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.OpenSsl;
import org.apache.ratis.thirdparty.io.netty.handler.ssl.SslContext;
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
  /** What any certificate of the cluster may ask a closed group: what it is and who leads it. */
  private static final Set<String> GROUP_VIEWS = Set.of(AdminProtocolServiceGrpc.getGroupInfoMethod()
      .getFullMethodName(), AdminProtocolServiceGrpc.getGroupListMethod().getFullMethodName());

  private RaftTls() {
  }

  /**
   * A member of a group whose every port speaks mutual TLS: it shows its certificate and admits only peers whose
   * certificates name {@code memberRole}, as members or as clients (an OM or SCM group, which only its members
   * call), except that any certificate of the cluster may ask what the group is and who leads it (GroupInfo,
   * GroupList: {@code tropos admin scm roles}). Plaintext (empty parameters) when the cluster runs without
   * security.
   */
  public static Parameters closedGroupMember(TransportSecurity transport, ServiceRole memberRole) {
    return member(transport, memberRole, ClientAuth.REQUIRE, GROUP_VIEWS);
  }

  /**
   * A member of groups that clients of the cluster write to (a datanode's pipelines): between members mutual TLS
   * as {@link #closedGroupMember}; Raft's client service takes any caller over TLS, with or without a certificate
   * (what a client may write, its block tokens say); the peer and admin services, which append entries, vote and
   * add or remove groups, admit only a {@code memberRole} certificate of the cluster, per call.
   */
  public static Parameters openGroupMember(TransportSecurity transport, ServiceRole memberRole) {
    return member(transport, memberRole, ClientAuth.OPTIONAL, Set.of(RaftClientProtocolServiceGrpc.SERVICE_NAME));
  }

  /**
   * Mutual TLS between members; the ports ask callers for a certificate of the cluster as {@code clientAuth} says,
   * and admit a call only from a {@code memberRole} certificate unless its method or service is in {@code open}.
   */
  private static Parameters member(TransportSecurity transport, ServiceRole memberRole, ClientAuth clientAuth,
      Set<String> open) {
    Parameters parameters = new Parameters();
    if (transport.tls()) {
      GrpcConfigKeys.TLS.setConf(parameters, new GrpcTlsConfig(ownKey(transport),
          transport.trustManager(memberRole), true));
      GrpcConfigKeys.Server.setServicesCustomizer(parameters, new MembersAnd(transport, memberRole, clientAuth,
          open));
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
   * Makes each port of a member trust every role of the cluster (checked against its root), asking for a
   * certificate as {@code clientAuth} says, and admit a call only from {@code memberRole} unless {@code open}
   * names its method or service.
   */
  private record MembersAnd(TransportSecurity transport, ServiceRole memberRole, ClientAuth clientAuth,
      Set<String> open) implements GrpcServices.Customizer {
    @Override
    public NettyServerBuilder customize(NettyServerBuilder builder, EnumSet<GrpcServices.Type> types) {
      try {
        builder.sslContext(serverContext(transport, clientAuth));
      } catch (SSLException e) {
        throw new IllegalStateException("cannot build the TLS context of the Raft port", e);
      }
      return builder.intercept(new MembersOnly(memberRole, open));
    }
  }

  /**
   * A member's port: its own certificate, trusting every role of the cluster (checked against its root), asking
   * for a certificate as {@code clientAuth} says; OpenSSL where it loads.
   */
  static SslContext serverContext(TransportSecurity transport, ClientAuth clientAuth) throws SSLException {
    SslContextBuilder context = SslContextBuilder.forServer(ownKey(transport))
        .trustManager(transport.trustManager(ServiceRole.values())).clientAuth(clientAuth);
    return new WholeReadUnwrapping(GrpcSslContexts.configure(context, OpenSsl.isAvailable() ? SslProvider.OPENSSL
        : SslProvider.JDK).build());
  }

  /** Refuses a call to a method or service not in {@code open} unless the peer's certificate names the role. */
  private record MembersOnly(ServiceRole memberRole, Set<String> open) implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      MethodDescriptor<Q, R> method = call.getMethodDescriptor();
      if (open.contains(method.getServiceName()) || open.contains(method.getFullMethodName())
          || CertificateSubject.ofPeer(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION))
              .filter(peer -> peer.role() == memberRole).isPresent()) {
        return next.startCall(call, headers);
      }
      call.close(Status.PERMISSION_DENIED.withDescription(method.getFullMethodName() + " admits only a "
          + memberRole.subjectName() + " certificate of the cluster"), new Metadata());
      return new ServerCall.Listener<>() {
      };
    }
  }
}
