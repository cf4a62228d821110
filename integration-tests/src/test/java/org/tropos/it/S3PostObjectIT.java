package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * POST object (browser-form uploads) over a real socket, the form built as a browser builds it: a policy signed
 * with Signature V2 by the uploader's secret, or no policy at all for a bucket open to anonymous writes. A form
 * its policy does not allow stores nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3PostObjectIT {
  private S3Cluster cluster;
  private S3Client s3;
  private String secret;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    s3 = cluster.client("poster");
    secret = cluster.secret("poster").getSecret();
    s3.createBucket(b -> b.bucket("forms"));
    s3.createBucket(b -> b.bucket("open").acl(BucketCannedACL.PUBLIC_READ_WRITE));
  }

  @AfterAll
  void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** A policy allowing keys under {@code uploads/} of up to {@code maxBytes} into {@code bucket}, until expiry. */
  private static String policy(String bucket, Instant expires, long maxBytes, String... extraConditions) {
    String json = "{\"expiration\": \"" + expires + "\", \"conditions\": [{\"bucket\": \"" + bucket + "\"},"
        + " [\"starts-with\", \"$key\", \"uploads/\"], {\"acl\": \"private\"},"
        + " [\"starts-with\", \"$Content-Type\", \"text/\"], [\"content-length-range\", 1, " + maxBytes + "]"
        + String.join("", java.util.Arrays.stream(extraConditions).map(c -> ", " + c).toList()) + "]}";
    return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private Map<String, String> signedFields(String policy, String key) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA1");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("key", key);
    fields.put("AWSAccessKeyId", "poster");
    fields.put("acl", "private");
    fields.put("policy", policy);
    fields.put("signature", Base64.getEncoder().encodeToString(mac.doFinal(policy.getBytes(StandardCharsets.UTF_8))));
    fields.put("Content-Type", "text/plain");
    return fields;
  }

  /** Posts {@code fields} then the file (named {@code fileName}) to {@code bucket}, as a browser's form does. */
  private HttpResponse<String> post(String bucket, Map<String, String> fields, String fileName, byte[] file)
      throws Exception {
    String boundary = "----TroposFormBoundary" + Long.toHexString(new Random().nextLong());
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (Map.Entry<String, String> field : fields.entrySet()) {
      body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field.getKey() + "\"\r\n\r\n"
          + field.getValue() + "\r\n").getBytes(StandardCharsets.UTF_8));
    }
    body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName
        + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8));
    body.write(file);
    body.write(("\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"submit\"\r\n\r\nUpload\r\n--"
        + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(cluster.endpoint().resolve("/" + bucket))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private ResponseBytes<GetObjectResponse> get(String bucket, String key) {
    return s3.getObjectAsBytes(g -> g.bucket(bucket).key(key));
  }

  @Test
  void aSignedFormUploadsItsFileWithWhatItsFieldsSay() throws Exception {
    byte[] file = new byte[3 << 20];
    new Random(3).nextBytes(file);
    Map<String, String> fields = signedFields(policy("forms", Instant.now().plusSeconds(600), 4 << 20,
        "[\"starts-with\", \"$x-amz-meta-camera\", \"\"]", "[\"eq\", \"$success_action_status\", \"201\"]",
        "[\"starts-with\", \"$tagging\", \"\"]"), "uploads/${filename}");
    fields.put("x-amz-meta-camera", "pinhole");
    fields.put("success_action_status", "201");
    fields.put("tagging", "<Tagging><TagSet><Tag><Key>album</Key><Value>2026</Value></Tag></TagSet></Tagging>");
    HttpResponse<String> response = post("forms", fields, "photo.raw", file);
    assertEquals(201, response.statusCode(), response.body());
    assertTrue(response.body().contains("<Key>uploads/photo.raw</Key>"), response.body());
    ResponseBytes<GetObjectResponse> stored = get("forms", "uploads/photo.raw");
    assertEquals(Base64.getEncoder().encodeToString(file), Base64.getEncoder().encodeToString(stored.asByteArray()));
    assertEquals("text/plain", stored.response().contentType());
    assertEquals(Map.of("camera", "pinhole"), stored.response().metadata());
    assertEquals(response.headers().firstValue("ETag").orElseThrow(), stored.response().eTag());
    assertEquals(java.util.List.of(Tag.builder().key("album").value("2026").build()),
        s3.getObjectTagging(t -> t.bucket("forms").key("uploads/photo.raw")).tagSet());
  }

  @Test
  void aFormItsPolicyDoesNotAllowStoresNothing() throws Exception {
    String policy = policy("forms", Instant.now().plusSeconds(600), 1024);
    byte[] small = "hello".getBytes(StandardCharsets.UTF_8);
    Map<String, String> outsidePrefix = signedFields(policy, "elsewhere/a.txt");
    assertEquals(403, post("forms", outsidePrefix, "a.txt", small).statusCode());
    Map<String, String> extraField = signedFields(policy, "uploads/extra.txt");
    extraField.put("x-amz-meta-unsigned", "sneaked in");
    assertEquals(403, post("forms", extraField, "a.txt", small).statusCode());
    Map<String, String> badSignature = signedFields(policy, "uploads/forged.txt");
    badSignature.put("signature", Base64.getEncoder().encodeToString(new byte[20]));
    assertEquals(403, post("forms", badSignature, "a.txt", small).statusCode());
    String expired = policy("forms", Instant.now().minusSeconds(1), 1024);
    assertEquals(403, post("forms", signedFields(expired, "uploads/late.txt"), "a.txt", small).statusCode());
    assertEquals(403, post("open", signedFields(policy, "uploads/other-bucket.txt"), "a.txt", small)
        .statusCode());
    HttpResponse<String> tooLarge = post("forms", signedFields(policy, "uploads/big.txt"), "a.txt", new byte[1025]);
    assertEquals(400, tooLarge.statusCode());
    assertTrue(tooLarge.body().contains("<Code>EntityTooLarge</Code>"), tooLarge.body());
    HttpResponse<String> empty = post("forms", signedFields(policy, "uploads/empty.txt"), "a.txt", new byte[0]);
    assertTrue(empty.body().contains("<Code>EntityTooSmall</Code>"), empty.body());
    for (String key : new String[] {"elsewhere/a.txt", "uploads/extra.txt", "uploads/forged.txt", "uploads/late.txt",
        "uploads/big.txt", "uploads/empty.txt"}) {
      assertThrows(NoSuchKeyException.class, () -> get("forms", key), key);
    }
    assertThrows(NoSuchKeyException.class, () -> get("open", "uploads/other-bucket.txt"));
  }

  @Test
  void anAnonymousFormWritesOnlyWhereTheBucketIsOpenToAll() throws Exception {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("key", "guest/note.txt");
    fields.put("success_action_redirect", "http://example.com/done?from=form");
    HttpResponse<String> accepted = post("open", fields, "note.txt", "from a guest".getBytes(StandardCharsets.UTF_8));
    assertEquals(303, accepted.statusCode(), accepted.body());
    String etag = get("open", "guest/note.txt").response().eTag();
    assertEquals("http://example.com/done?from=form&bucket=open&key=guest%2Fnote.txt&etag="
        + etag.replace("\"", "%22"), accepted.headers().firstValue("Location").orElseThrow());
    assertEquals("from a guest", get("open", "guest/note.txt").asUtf8String());

    HttpResponse<String> refused = post("forms", fields, "note.txt", "from a guest".getBytes(StandardCharsets.UTF_8));
    assertEquals(403, refused.statusCode(), refused.body());
    assertThrows(NoSuchKeyException.class, () -> get("forms", "guest/note.txt"));
  }

  @Test
  void aPostThatIsNotAFormIsRefused() throws Exception {
    HttpRequest request = HttpRequest.newBuilder(cluster.endpoint().resolve("/forms"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertEquals(412, response.statusCode(), response.body());
    Map<String, String> noKey = new LinkedHashMap<>();
    noKey.put("acl", "public-read");
    HttpResponse<String> keyless = post("open", noKey, "x.txt", new byte[1]);
    assertEquals(400, keyless.statusCode());
    assertTrue(keyless.body().contains("<Code>InvalidArgument</Code>"), keyless.body());
  }
}
