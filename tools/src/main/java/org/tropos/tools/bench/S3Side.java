package org.tropos.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * One S3 service a benchmark drives: where it is, the credentials, the local process serving it when known (its
 * CPU time is the server's cost per operation) and, for an HTTPS endpoint whose certificate a private CA signed,
 * that CA's certificate.
 */
public record S3Side(String name, String endpoint, String accessKey, String secret, OptionalLong pid,
    Optional<Path> caFile) {
  S3Side(String name, String endpoint, String accessKey, String secret, OptionalLong pid) {
    this(name, endpoint, accessKey, secret, pid, Optional.empty());
  }

  /** The same service under another name. */
  S3Side named(String newName) {
    return new S3Side(newName, endpoint, accessKey, secret, pid, caFile);
  }

  /** The service's process: the given one, else whoever listens on the endpoint's port on this machine. */
  static OptionalLong serverPid(String endpoint, Long given) {
    if (given != null) {
      return OptionalLong.of(given);
    }
    URI uri = URI.create(endpoint);
    int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    return ListeningProcess.of(port);
  }

  /** CPU time the server has used so far, or -1 when its process is not known. */
  long serverCpuNanos() {
    return pid.isPresent() ? ProcessCpu.nanos(pid.getAsLong()) : -1;
  }

  /** CPU time the server's JIT compiler threads have used so far, or -1 when its process is not known. */
  long serverCompilerNanos() {
    return pid.isPresent() ? ProcessCpu.compilerNanos(pid.getAsLong()) : -1;
  }

  /**
   * An AWS SDK client with path-style addressing, enough connections for 64 concurrent requests, trusting the
   * side's CA if it has one.
   */
  public S3Client client() throws IOException {
    ApacheHttpClient.Builder http = ApacheHttpClient.builder().maxConnections(64);
    if (caFile.isPresent()) {
      TrustManager[] trust = trusting(caFile.get());
      http.tlsTrustManagersProvider(() -> trust);
    }
    return S3Client.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secret)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .httpClientBuilder(http).overrideConfiguration(o -> o.apiCallTimeout(Duration.ofMinutes(10))).build();
  }

  private static TrustManager[] trusting(Path caFile) throws IOException {
    try (InputStream in = Files.newInputStream(caFile)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int n = 0;
      for (Certificate ca : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca" + n++, ca);
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot trust the CA in " + caFile + ": " + e.getMessage(), e);
    }
  }
}
