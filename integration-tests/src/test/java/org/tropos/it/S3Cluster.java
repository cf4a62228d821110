package org.tropos.it;

import java.net.URI;
import java.time.Duration;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.om.S3Secret;
import org.tropos.s3.S3Gateway;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/** A mini cluster with an S3 gateway in front, for tests that drive it with real S3 clients. */
final class S3Cluster implements AutoCloseable {
  /** Small blocks and chunks, so that a few MB span several blocks. */
  static final Map<String, String> SETTINGS = Map.of("ozone.scm.block.size", "4MB", "ozone.scm.chunk.size", "1MB",
      "ozone.scm.datanode.pipeline.limit", "2");

  private final MiniCluster mini;
  private final S3Gateway gateway;
  private final TroposClient tropos;

  S3Cluster(Path dir) throws Exception {
    this(dir, Map.of());
  }

  /** @param settings the test's own configuration over {@link #SETTINGS} */
  S3Cluster(Path dir, Map<String, String> settings) throws Exception {
    this(dir, settings, 3);
  }

  /** @param datanodes how many datanodes: 3, or more for erasure-coded buckets */
  S3Cluster(Path dir, Map<String, String> settings, int datanodes) throws Exception {
    Map<String, String> all = new HashMap<>(SETTINGS);
    all.putAll(settings);
    mini = new MiniCluster(dir, datanodes, 1, all);
    S3Gateway started = null;
    TroposClient client = null;
    try {
      mini.awaitAllHealthy();
      mini.awaitOpenPipelines(1);
      started = new S3Gateway(mini.clientConfig().with(all).with("ozone.s3g.http-address", "127.0.0.1:0")
          .with("ozone.s3g.https-address", "127.0.0.1:0"), SystemClock.INSTANCE);
      started.start();
      client = TroposClient.create(mini.clientConfig());
    } catch (Exception | Error e) {
      if (started != null) {
        started.close();
      }
      mini.close();
      throw e;
    }
    gateway = started;
    tropos = client;
  }

  MiniCluster mini() {
    return mini;
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + gateway.port());
  }

  TroposClient tropos() {
    return tropos;
  }

  S3Secret secret(String user) throws OmException {
    return tropos.getS3Secret(user, true);
  }

  /** An AWS SDK v2 client of the gateway for {@code credentials}: path style, no retries, a 60 s call timeout. */
  S3Client client(AwsCredentialsProvider credentials) {
    return clientOf(endpoint(), credentials);
  }

  /** The same for the gateway at {@code endpoint} (a mini cluster's own, say), signing as {@code accessId}. */
  static S3Client clientOf(URI endpoint, String accessId, String secret) {
    return clientOf(endpoint, StaticCredentialsProvider.create(AwsBasicCredentials.create(accessId, secret)));
  }

  private static S3Client clientOf(URI endpoint, AwsCredentialsProvider credentials) {
    return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  /** A client signing as {@code user} with its secret (created if it has none). */
  S3Client client(String user) throws OmException {
    return client(StaticCredentialsProvider.create(AwsBasicCredentials.create(user, secret(user).getSecret())));
  }

  @Override
  public void close() {
    tropos.close();
    gateway.close();
    mini.close();
  }
}
