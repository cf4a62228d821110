package org.tropos.s3;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.http.JsonRoute;
import org.tropos.common.http.StatusServer;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.CertificateRenewal;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Closer;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.VersionInfo;
import org.tropos.s3.auth.OmS3Users;
import org.tropos.s3.http.S3HttpServer;
import org.tropos.s3.ops.S3Dispatcher;
import org.tropos.s3.ops.S3Meters;

/**
 * The S3 gateway process: stateless; a Tropos client (OM and data path) behind an HTTP server. Builds its parts,
 * starts them, stops them in reverse order.
 */
public final class S3Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(S3Gateway.class);

  private final Configuration conf;
  private final Clock clock;
  private final CertificateIssuer issuer;
  private final LifeCycle lifeCycle = new LifeCycle("S3 gateway");
  private TroposClient client;
  private S3HttpServer server;
  private final DaemonMetrics metrics = new DaemonMetrics();
  private StatusServer http;
  private OmReachability omReachability;
  private CertificateRenewal renewal;
  private S3HttpServer httpsServer;

  /** A gateway that, in a secure cluster, must have its certificate already (or fails to start saying so). */
  public S3Gateway(Configuration conf, Clock clock) {
    this(conf, clock, null);
  }

  /** @param issuer where the gateway gets its first certificate in a secure cluster (null: it must have one) */
  public S3Gateway(Configuration conf, Clock clock, CertificateIssuer issuer) {
    this.conf = conf;
    this.clock = clock;
    this.issuer = issuer;
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    S3GatewayConfig config = S3GatewayConfig.from(conf);
    try {
      CertificateIssuer firstCertificate = issuer != null ? issuer : CertificateIssuer.none("the S3 gateway has no"
          + " certificate in " + config.security().dir() + ": start it once with a bootstrap token (tropos admin"
          + " cert token --role s3g)");
      TransportSecurity transport = config.security().transport(ServiceRole.S3G, config.certificateHost(),
          firstCertificate);
      renewal = ScmCertificateClient.renewal("s3g", config.security().scm(), transport, clock).orElse(null);
      client = TroposClient.create(conf, Callers.localUser(), transport);
      S3Meters meters = new S3Meters(metrics.registry());
      S3Dispatcher dispatcher = new S3Dispatcher(client, new OmS3Users(client, clock), clock, config.volume(),
          config.layout(), config.storageClasses(), meters);
      server = new S3HttpServer(config.bind(), dispatcher, config.maxConcurrent(), config.domains());
      server.start();
      if (transport.tls()) {
        // S3 clients authenticate by signature, not certificate: the handshake asks for none. OpenSSL (BoringSSL)
        // where it loads: the JDK's TLS engine in Netty cost several times its CPU per request.
        SslContext tls = SslContextBuilder.forServer(transport.keyManager().orElseThrow())
            .sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK).build();
        httpsServer = new S3HttpServer(config.httpsBind(), dispatcher, config.maxConcurrent(), config.domains(),
            Optional.of(tls));
        httpsServer.start();
      }
      long started = clock.monotonicMillis();
      omReachability = new OmReachability(client);
      omReachability.start();
      http = StatusServer.of("s3g-http", config.status(), transport, metrics, omReachability)
          .json("/api/summary", (rest, query) -> JsonRoute.json(meters.summary(clock.monotonicMillis() - started)))
          .link("Cluster console (SCM)", "http://" + config.scmConsole() + "/");
      http.start();
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    lifeCycle.startEnds();
    LOG.info("S3 gateway started (version {}) on port {}{}, buckets in volume {}", VersionInfo.version(), port(),
        httpsPort().map(p -> " (HTTPS on port " + p + ")").orElse(""), config.volume());
  }

  public int port() {
    return server.port();
  }

  /** The HTTPS port, in a secure cluster. */
  public Optional<Integer> httpsPort() {
    return Optional.ofNullable(httpsServer).map(S3HttpServer::port);
  }

  /** The status port (/prom, /health, /ready). */
  public int statusPort() {
    return http.port();
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    Closer.closeAll("S3 gateway", http, omReachability, httpsServer, server, client, renewal, metrics);
    lifeCycle.closeEnds();
    LOG.info("S3 gateway stopped");
  }
}
