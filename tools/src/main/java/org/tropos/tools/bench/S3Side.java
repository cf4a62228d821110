package org.tropos.tools.bench;

import java.net.URI;
import java.time.Duration;
import java.util.OptionalLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * One S3 service a benchmark drives: where it is, the credentials, and the local process serving it when known
 * (its CPU time is the server's cost per operation).
 */
record S3Side(String name, String endpoint, String accessKey, String secret, OptionalLong pid) {
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

  /** An AWS SDK client with path-style addressing, enough connections for 64 concurrent requests. */
  S3Client client() {
    return S3Client.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secret)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .httpClientBuilder(ApacheHttpClient.builder().maxConnections(64))
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofMinutes(10))).build();
  }
}
