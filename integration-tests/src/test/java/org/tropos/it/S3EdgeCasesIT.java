package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
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
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAttributesResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * S3's conditional writes and edge cases through the AWS SDK v2: If-None-Match / If-Match on PUT and on
 * CompleteMultipartUpload, completing an upload twice, parts read by number and described by
 * GetObjectAttributes, tags given when an upload starts, an empty object's ranges, chunked transfer encoding,
 * S3's limits on key and metadata sizes, and bucket names taken by oneself or by another user.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3EdgeCasesIT {
  private static final int MB = 1 << 20;

  private S3Cluster cluster;
  private S3Secret gina;
  private S3Client s3;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    gina = cluster.secret("gina");
    s3 = cluster.client("gina");
    s3.createBucket(b -> b.bucket("edges"));
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

  private static S3Exception failure(Supplier<?> call) {
    return assertThrows(S3Exception.class, call::get);
  }

  private String read(String key) {
    return s3.getObjectAsBytes(g -> g.bucket("edges").key(key)).asUtf8String();
  }

  @Test
  void conditionalPutsHoldAtCommit() {
    String etag = s3.putObject(p -> p.bucket("edges").key("cond").ifNoneMatch("*"), RequestBody.fromString("one"))
        .eTag();
    S3Exception exists = failure(() -> s3.putObject(p -> p.bucket("edges").key("cond").ifNoneMatch("*"),
        RequestBody.fromString("two")));
    assertEquals(412, exists.statusCode());
    assertEquals("PreconditionFailed", exists.awsErrorDetails().errorCode());
    assertEquals(412, failure(() -> s3.putObject(p -> p.bucket("edges").key("cond").ifMatch("\"0000\""),
        RequestBody.fromString("three"))).statusCode());
    assertEquals("one", read("cond"), "the failed conditions wrote nothing");
    s3.putObject(p -> p.bucket("edges").key("cond").ifMatch(etag), RequestBody.fromString("four"));
    assertEquals("four", read("cond"));
    assertEquals("NoSuchKey", failure(() -> s3.putObject(p -> p.bucket("edges").key("never").ifMatch(etag),
        RequestBody.fromString("x"))).awsErrorDetails().errorCode(), "If-Match on a key that does not exist");
  }

  private List<CompletedPart> uploadParts(String key, String uploadId, byte[] data, int partSize) {
    List<CompletedPart> parts = new ArrayList<>();
    for (int from = 0, number = 1; from < data.length; from += partSize, number++) {
      byte[] part = Arrays.copyOfRange(data, from, Math.min(data.length, from + partSize));
      int n = number;
      String etag = s3.uploadPart(u -> u.bucket("edges").key(key).uploadId(uploadId).partNumber(n),
          RequestBody.fromBytes(part)).eTag();
      parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
    }
    return parts;
  }

  @Test
  void multipartUploadsKeepTheirTagsCompleteTwiceAndServeTheirParts() {
    byte[] data = new byte[11 * MB + 5];
    new Random(9).nextBytes(data);
    String id = s3.createMultipartUpload(c -> c.bucket("edges").key("mp").tagging("stage=raw")).uploadId();
    List<CompletedPart> parts = uploadParts("mp", id, data, 5 * MB);
    CompleteMultipartUploadRequest complete = CompleteMultipartUploadRequest.builder().bucket("edges").key("mp")
        .uploadId(id).multipartUpload(m -> m.parts(parts)).build();
    String etag = s3.completeMultipartUpload(complete).eTag();
    assertEquals(etag, s3.completeMultipartUpload(complete).eTag(), "completing again answers the same object");
    assertEquals("stage", s3.getObjectTagging(t -> t.bucket("edges").key("mp")).tagSet().get(0).key());

    byte[] second = s3.getObjectAsBytes(g -> g.bucket("edges").key("mp").partNumber(2)).asByteArray();
    assertArrayEquals(Arrays.copyOfRange(data, 5 * MB, 10 * MB), second);
    assertEquals(3, s3.headObject(h -> h.bucket("edges").key("mp").partNumber(3)).partsCount());
    S3Exception pastTheLast = failure(() -> s3.getObjectAsBytes(g -> g.bucket("edges").key("mp").partNumber(4)));
    assertEquals(400, pastTheLast.statusCode());
    assertEquals("InvalidPart", pastTheLast.awsErrorDetails().errorCode());

    GetObjectAttributesResponse attributes = s3.getObjectAttributes(a -> a.bucket("edges").key("mp")
        .objectAttributes(ObjectAttributes.E_TAG, ObjectAttributes.OBJECT_SIZE, ObjectAttributes.OBJECT_PARTS,
            ObjectAttributes.STORAGE_CLASS));
    assertEquals(etag.replace("\"", ""), attributes.eTag());
    assertEquals(data.length, attributes.objectSize());
    assertEquals(3, attributes.objectParts().totalPartsCount());
    assertEquals(List.of((long) 5 * MB, (long) 5 * MB, (long) MB + 5), attributes.objectParts().parts().stream()
        .map(p -> p.size()).toList());
    assertEquals("STANDARD", attributes.storageClassAsString());
  }

  @Test
  void completeChecksItsConditionsOnTheKeyItReplaces() {
    s3.putObject(p -> p.bucket("edges").key("guarded"), RequestBody.fromString("first"));
    String id = s3.createMultipartUpload(c -> c.bucket("edges").key("guarded")).uploadId();
    List<CompletedPart> parts = uploadParts("guarded", id, "second".getBytes(), 5 * MB);
    assertEquals(412, failure(() -> s3.completeMultipartUpload(c -> c.bucket("edges").key("guarded").uploadId(id)
        .ifNoneMatch("*").multipartUpload(m -> m.parts(parts)))).statusCode());
    assertEquals("first", read("guarded"));
    s3.completeMultipartUpload(c -> c.bucket("edges").key("guarded").uploadId(id).multipartUpload(m -> m
        .parts(parts)));
    assertEquals("second", read("guarded"));
  }

  @Test
  void anEmptyObjectsRangesAreNotSatisfiable() {
    s3.putObject(p -> p.bucket("edges").key("empty"), RequestBody.empty());
    S3Exception range = failure(() -> s3.getObjectAsBytes(g -> g.bucket("edges").key("empty").range("bytes=0-0")));
    assertEquals(416, range.statusCode());
    assertEquals("InvalidRange", range.awsErrorDetails().errorCode());
    assertEquals("", read("empty"));
  }

  @Test
  void aChunkedTransferEncodingPutIsStoredWhole() throws Exception {
    byte[] data = new byte[3 * MB + 11];
    new Random(4).nextBytes(data);
    try (S3Presigner presigner = S3Presigner.builder().endpointOverride(cluster.endpoint()).region(Region.US_EAST_1)
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("gina",
            gina.getSecret()))).build()) {
      HttpURLConnection put = (HttpURLConnection) presigner.presignPutObject(r -> r
          .signatureDuration(Duration.ofMinutes(5)).putObjectRequest(p -> p.bucket("edges").key("chunked")))
          .url().openConnection();
      put.setRequestMethod("PUT");
      put.setDoOutput(true);
      put.setChunkedStreamingMode(64 * 1024);
      try (OutputStream out = put.getOutputStream()) {
        out.write(data);
      }
      assertEquals(200, put.getResponseCode());
    }
    assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("edges").key("chunked")).asByteArray());
  }

  @Test
  void keysAndMetadataPastS3sLimitsAreRefusedAndErrorsNeverEchoAHugeKey() {
    String longKey = "k".repeat(1025);
    assertEquals("KeyTooLongError", failure(() -> s3.putObject(p -> p.bucket("edges").key(longKey),
        RequestBody.fromString("x"))).awsErrorDetails().errorCode());
    assertEquals("MetadataTooLarge", failure(() -> s3.putObject(p -> p.bucket("edges").key("meta")
        .metadata(Map.of("big", "v".repeat(2100))), RequestBody.fromString("x"))).awsErrorDetails().errorCode());
    S3Exception missing = failure(() -> s3.getObjectAsBytes(g -> g.bucket("edges").key("m".repeat(1000))));
    assertEquals(404, missing.statusCode());
    assertTrue(missing.awsErrorDetails().errorMessage().length() < 400, missing.awsErrorDetails().errorMessage());
  }

  @Test
  void itsOwnerMayCreateABucketAgainAnotherUserMayNot() throws Exception {
    s3.createBucket(b -> b.bucket("taken"));
    s3.putObject(p -> p.bucket("taken").key("kept"), RequestBody.fromString("x"));
    s3.createBucket(b -> b.bucket("taken")); // as in us-east-1: the owner's CreateBucket again succeeds
    assertEquals("x", s3.getObjectAsBytes(g -> g.bucket("taken").key("kept")).asUtf8String(), "and keeps the keys");
    try (S3Client other = cluster.client("hal")) {
      S3Exception e = failure(() -> other.createBucket(b -> b.bucket("taken")));
      assertEquals(409, e.statusCode());
      assertEquals("BucketAlreadyExists", e.awsErrorDetails().errorCode());
    }
  }
}
