package org.tropos.common.security;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.OpenSsl;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLException;

/**
 * TLS for gRPC between the cluster's daemons: each side shows its certificate chain and trusts only the cluster's
 * root, so both ends are authenticated (mutual TLS). OpenSSL (BoringSSL, shipped inside gRPC's shaded Netty) is
 * used where its native library loads, the JDK's TLS elsewhere.
 */
public final class TlsContexts {
  private TlsContexts() {
  }

  /** Which TLS implementation contexts are built on here. */
  public static SslProvider provider() {
    return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
  }

  /** A server that requires a client certificate chaining to the root of {@code identity}. */
  public static SslContext server(ServiceCertificates.Identity identity) throws SSLException {
    return GrpcSslContexts.configure(SslContextBuilder.forServer(identity.key(), chain(identity)), provider())
        .trustManager(identity.root()).clientAuth(ClientAuth.REQUIRE).build();
  }

  /** A client that shows {@code identity} and trusts servers whose certificates chain to its root. */
  public static SslContext client(ServiceCertificates.Identity identity) throws SSLException {
    return GrpcSslContexts.configure(SslContextBuilder.forClient().keyManager(identity.key(), chain(identity)),
        provider()).trustManager(identity.root()).build();
  }

  private static X509Certificate[] chain(ServiceCertificates.Identity identity) {
    return identity.chain().toArray(new X509Certificate[0]);
  }
}
