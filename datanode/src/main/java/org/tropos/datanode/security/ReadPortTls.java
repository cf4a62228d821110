package org.tropos.datanode.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.util.Optional;
import javax.net.ssl.SSLException;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;

/**
 * TLS of the datanode's read port in a secure cluster: the datanode shows its certificate; a reader may show one
 * of the cluster (checked against its root) but need not, since what it may read its block tokens say. OpenSSL
 * (BoringSSL) where its native library loads, which encrypts several times faster than the JDK; the JDK elsewhere.
 */
public final class ReadPortTls {
  private ReadPortTls() {
  }

  /** The port's TLS context; none in a cluster without security. */
  public static Optional<SslContext> of(TransportSecurity transport) throws SSLException {
    if (!transport.tls()) {
      return Optional.empty();
    }
    SslContextBuilder builder = SslContextBuilder.forServer(transport.keyManager().orElseThrow(
        () -> new IllegalStateException("a secure datanode serves reads only with its certificate")))
        .trustManager(transport.trustManager(ServiceRole.values())).clientAuth(ClientAuth.OPTIONAL)
        .sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK);
    return Optional.of(builder.build());
  }
}
