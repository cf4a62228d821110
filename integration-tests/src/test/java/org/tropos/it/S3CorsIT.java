package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.proto.om.S3Secret;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * CORS as a browser meets it: the bucket owner sets rules with the SDK; a preflight (OPTIONS, unsigned, with the
 * headers a browser sends) is answered from them; a signed or presigned request from an allowed origin carries the
 * Access-Control headers, one from another origin none; removing the rules closes CORS again.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3CorsIT {
  private static final String SITE = "https://app.example.com";

  private S3Cluster cluster;
  private S3Client s3;
  private S3Secret alice;
  private S3RawClient anonymous;
  private S3RawClient signed;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    alice = cluster.secret("alice");
    s3 = cluster.client("alice");
    anonymous = new S3RawClient(cluster.endpoint(), null, null);
    signed = new S3RawClient(cluster.endpoint(), "alice", alice.getSecret());
    s3.createBucket(b -> b.bucket("web"));
    s3.putObject(p -> p.bucket("web").key("page.json"), RequestBody.fromString("{}"));
  }

  @AfterAll
  void stop() {
    anonymous.close();
    signed.close();
    s3.close();
    cluster.close();
  }

  private S3RawClient.Response preflight(String origin, String method, String headers) {
    return anonymous.send("OPTIONS", "/web/page.json", headers == null
        ? Map.of("Origin", origin, "Access-Control-Request-Method", method)
        : Map.of("Origin", origin, "Access-Control-Request-Method", method, "Access-Control-Request-Headers",
            headers), null);
  }

  @Test
  void rulesAnswerPreflightsAndMarkAllowedRequests() throws Exception {
    assertEquals(403, preflight(SITE, "GET", null).status(), "no rules: CORS is not enabled");
    assertEquals("NoSuchCORSConfiguration", assertThrows(S3Exception.class, () -> s3.getBucketCors(g -> g
        .bucket("web"))).awsErrorDetails().errorCode());

    s3.putBucketCors(c -> c.bucket("web").corsConfiguration(r -> r.corsRules(
        CORSRule.builder().id("app").allowedOrigins("https://*.example.com").allowedMethods("GET", "PUT")
            .allowedHeaders("x-amz-*", "content-type").exposeHeaders("ETag").maxAgeSeconds(600).build(),
        CORSRule.builder().allowedOrigins("*").allowedMethods("HEAD").build())));
    List<CORSRule> kept = s3.getBucketCors(g -> g.bucket("web")).corsRules();
    assertEquals(2, kept.size());
    assertEquals(List.of("https://*.example.com"), kept.get(0).allowedOrigins());
    assertEquals(600, kept.get(0).maxAgeSeconds());

    S3RawClient.Response ok = preflight(SITE, "PUT", "Content-Type, X-Amz-Date");
    assertEquals(200, ok.status(), ok.body());
    assertEquals(SITE, header(ok, "access-control-allow-origin"));
    assertEquals("GET, PUT", header(ok, "access-control-allow-methods"));
    assertEquals("content-type, x-amz-date", header(ok, "access-control-allow-headers"));
    assertEquals("600", header(ok, "access-control-max-age"));
    assertEquals("*", header(preflight("https://other.site", "HEAD", null), "access-control-allow-origin"));
    assertEquals(403, preflight("https://other.site", "GET", null).status(), "origin not allowed for GET");
    assertEquals(403, preflight(SITE, "DELETE", null).status(), "method not allowed");
    assertEquals(403, preflight(SITE, "PUT", "authorization-extra").status(), "header not allowed");
    assertEquals(400, anonymous.send("OPTIONS", "/web/page.json", Map.of("Origin", SITE), null).status(),
        "a preflight names its method");

    S3RawClient.Response get = signed.send("GET", "/web/page.json", Map.of("Origin", SITE), null);
    assertEquals(200, get.status());
    assertEquals(SITE, header(get, "access-control-allow-origin"));
    assertEquals("ETag", header(get, "access-control-expose-headers"));
    assertEquals(null, header(signed.send("GET", "/web/page.json", Map.of("Origin", "https://evil.test"), null),
        "access-control-allow-origin"), "another origin gets no CORS headers");

    try (S3Presigner presigner = S3Presigner.builder().endpointOverride(cluster.endpoint()).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("alice",
            alice.getSecret())))
        .serviceConfiguration(software.amazon.awssdk.services.s3.S3Configuration.builder()
            .pathStyleAccessEnabled(true).build()).build()) {
      URL url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
          .getObjectRequest(g -> g.bucket("web").key("page.json"))).url();
      S3RawClient.Response presigned = anonymous.send("GET", url.getFile(), Map.of("Origin", SITE), null);
      assertEquals(200, presigned.status(), presigned.body());
      assertEquals(SITE, header(presigned, "access-control-allow-origin"));
    }

    s3.deleteBucketCors(d -> d.bucket("web"));
    assertEquals(403, preflight(SITE, "GET", null).status());
    assertFalse(signed.send("GET", "/web/page.json", Map.of("Origin", SITE), null).headers()
        .containsKey("access-control-allow-origin"));
  }

  @Test
  void aConfigurationS3WouldRefuseIsRefusedAndChangesNothing() {
    s3.createBucket(b -> b.bucket("strict"));
    S3Exception e = assertThrows(S3Exception.class, () -> s3.putBucketCors(c -> c.bucket("strict")
        .corsConfiguration(r -> r.corsRules(CORSRule.builder().allowedOrigins("*").allowedMethods("PATCH")
            .build()))));
    assertEquals("InvalidRequest", e.awsErrorDetails().errorCode());
    assertTrue(assertThrows(S3Exception.class, () -> s3.getBucketCors(g -> g.bucket("strict"))).statusCode()
        == 404);
  }

  private static String header(S3RawClient.Response response, String name) {
    List<String> values = response.headers().get(name);
    return values == null ? null : values.get(0);
  }
}
