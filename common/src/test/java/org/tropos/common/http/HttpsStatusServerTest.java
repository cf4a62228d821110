package org.tropos.common.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.metrics.DaemonMetrics;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.SystemClock;

/**
 * A secure daemon's status port: {@code /prom}, {@code /health} and {@code /ready} open over HTTP and HTTPS; the
 * guarded console routes only over HTTPS and only to a client certificate of the cluster's CA.
 */
class HttpsStatusServerTest {
  private static final String CLUSTER = "CID-https";
  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final DaemonMetrics metrics = new DaemonMetrics();
  private CertificateAuthority ca;
  private StatusServer server;

  @TempDir
  Path dir;

  @BeforeEach
  void start() throws Exception {
    ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, CLUSTER, SystemClock.INSTANCE);
    server = new StatusServer("test-http", new HostPort("127.0.0.1", 0), metrics, Optional::empty)
        .json("/api/things", (rest, query) -> "{\"things\": 3}")
        .guard("/api/")
        .https(new HostPort("127.0.0.1", 0), TransportSecurity.mutual(certificates(ca, ServiceRole.SCM, "scm"))
            .httpsServerContext());
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
    metrics.close();
  }

  private ServiceCertificates certificates(CertificateAuthority authority, ServiceRole role, String name)
      throws Exception {
    return ServiceCertificates.loadOrObtain(dir.resolve(role + "-" + name + "-" + System.nanoTime()),
        new CertificateSubject(role, name, authority == ca ? CLUSTER : "CID-other"), settings,
        authority.inProcess());
  }

  @Test
  void theOpenRoutesAnswerEveryoneAndTheConsoleOnlyACertificateOfTheClusterOverHttps() throws Exception {
    SSLContext nobody = TransportSecurity.trusting(ca.root()).socketContext(ServiceRole.SCM);
    SSLContext user = TransportSecurity.mutual(certificates(ca, ServiceRole.USER, "alice"))
        .socketContext(ServiceRole.SCM);
    assertEquals(200, status(http("/prom")));
    assertEquals(403, status(http("/api/things")), "no console over plain HTTP");
    assertEquals(200, status(https("/health", nobody)));
    assertEquals(200, status(https("/prom", nobody)));
    HttpURLConnection anonymous = https("/api/things", nobody);
    assertEquals(403, status(anonymous), "no console without a certificate");
    HttpURLConnection alice = https("/api/things", user);
    assertEquals(200, status(alice));
    try (InputStream body = alice.getInputStream()) {
      assertEquals("{\"things\": 3}", new String(body.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aCertificateOfAnotherCaIsRefused() throws Exception {
    CertificateAuthority other = CertificateAuthority.initialize(dir.resolve("other"), settings, "CID-other",
        SystemClock.INSTANCE);
    ServiceCertificates mallory = certificates(other, ServiceRole.USER, "mallory");
    // Mallory trusts the cluster's server, but shows a certificate its CA did not sign.
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(new javax.net.ssl.KeyManager[] {TransportSecurity.mutual(mallory).keyManager().orElseThrow()},
        new javax.net.ssl.TrustManager[] {TransportSecurity.trusting(ca.root()).trustManager(ServiceRole.SCM)}, null);
    assertThrows(IOException.class, () -> status(https("/api/things", context)));
  }

  private HttpURLConnection http(String path) throws IOException {
    return (HttpURLConnection) URI.create("http://127.0.0.1:" + server.port() + path).toURL().openConnection();
  }

  private HttpURLConnection https(String path, SSLContext context) throws IOException {
    HttpsURLConnection connection = (HttpsURLConnection) URI.create("https://127.0.0.1:"
        + server.httpsPort().orElseThrow() + path).toURL().openConnection();
    connection.setSSLSocketFactory(context.getSocketFactory());
    // The cluster's trust checks the CA and the server's role, not host names (ClusterTrust).
    connection.setHostnameVerifier((host, session) -> true);
    return connection;
  }

  private static int status(HttpURLConnection connection) throws IOException {
    return connection.getResponseCode();
  }
}
