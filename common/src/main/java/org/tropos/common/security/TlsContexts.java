package org.tropos.common.security;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.OpenSsl;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;

/**
 * TLS for gRPC between the cluster's daemons: each side shows its current certificate chain (read at every
 * handshake, so renewals take effect) and trusts only the cluster's CA ({@link ClusterTrust}). OpenSSL
 * (BoringSSL, shipped inside gRPC's shaded Netty) is used where its native library loads, the JDK's TLS elsewhere.
 */
public final class TlsContexts {
  private TlsContexts() {
  }

  /** Which TLS implementation contexts are built on here. */
  public static SslProvider provider() {
    return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
  }

  /**
   * A server showing {@code identity}. A client certificate is asked for, and checked against the cluster's root
   * when shown, but not required: which services admit a caller without one is {@link PeerRoles}'s decision.
   */
  public static SslContext server(Supplier<ServiceCertificates.Identity> identity) throws SSLException {
    return GrpcSslContexts.configure(SslContextBuilder.forServer(new CurrentIdentityKeyManager(identity)),
        provider()).trustManager(ClusterTrust.of(identity.get().root())).clientAuth(ClientAuth.OPTIONAL).build();
  }

  /** A client showing {@code identity}, if any, to servers it trusts as {@code trust} says. */
  static SslContext client(Optional<Supplier<ServiceCertificates.Identity>> identity, TrustManager trust)
      throws SSLException {
    SslContextBuilder builder = SslContextBuilder.forClient();
    identity.ifPresent(i -> builder.keyManager(new CurrentIdentityKeyManager(i)));
    return GrpcSslContexts.configure(builder, provider()).trustManager(trust).build();
  }
}
