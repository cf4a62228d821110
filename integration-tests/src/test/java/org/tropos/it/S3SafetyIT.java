package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectLockLegalHoldStatus;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * No request may destroy or invent data: every sub-resource S3 defines, with every method, on an object, an
 * existing bucket and a missing one, leaves the object, the bucket's contents and the missing bucket as they
 * were, unless it is the very operation that changes them; and the four requests that once fell through to a
 * plain PUT, GET or bucket creation, or deleted the wrong key, driven by the AWS SDK as a user sends them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3SafetyIT {
  /** S3's sub-resources of buckets and objects (S3 API reference), walked at both levels. */
  private static final List<String> SUB_RESOURCES = List.of("abac", "accelerate", "acl", "analytics", "attributes",
      "cors", "delete", "encryption", "intelligent-tiering", "inventory", "legal-hold", "lifecycle", "location",
      "logging", "metadataConfiguration", "metadataInventoryTable", "metadataJournalTable", "metadataTable",
      "metrics", "notification", "object-lock", "ownershipControls", "policy", "policyStatus", "publicAccessBlock",
      "renameObject", "replication", "requestPayment", "restore", "retention", "select", "session", "tagging",
      "torrent", "uploadId", "uploads", "versioning", "versions", "website");
  private static final List<String> METHODS = List.of("PUT", "GET", "DELETE", "POST", "HEAD");
  /** What the gateway serves, as "METHOD level?sub-resource"; everything else must be NotImplemented. */
  private static final Set<String> SERVED = Set.of("GET bucket?location", "GET bucket?uploads",
      "POST bucket?delete", "GET bucket?versioning", "PUT bucket?versioning", "GET bucket?versions",
      "GET bucket?acl", "PUT bucket?acl", "GET bucket?tagging", "PUT bucket?tagging", "DELETE bucket?tagging",
      "GET bucket?cors", "PUT bucket?cors", "DELETE bucket?cors", "GET bucket?policy", "PUT bucket?policy",
      "DELETE bucket?policy", "GET bucket?policyStatus", "GET bucket?publicAccessBlock",
      "PUT bucket?publicAccessBlock", "DELETE bucket?publicAccessBlock", "GET bucket?ownershipControls",
      "PUT bucket?ownershipControls", "DELETE bucket?ownershipControls", "GET bucket?encryption",
      "PUT bucket?encryption", "DELETE bucket?encryption",
      "GET object?tagging", "PUT object?tagging", "DELETE object?tagging",
      "POST object?uploads", "PUT object?uploadId", "POST object?uploadId", "GET object?uploadId",
      "DELETE object?uploadId", "GET object?acl", "PUT object?acl", "GET object?attributes");
  private static final String CONTENT = "the original content";

  private S3Cluster cluster;
  private S3Client s3;
  private S3RawClient raw;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    s3 = cluster.client("carol");
    raw = new S3RawClient(cluster.endpoint(), "carol", cluster.secret("carol").getSecret());
  }

  @AfterAll
  void stop() {
    if (raw != null) {
      raw.close();
    }
    if (s3 != null) {
      s3.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** What a reader sees of an object: its bytes, ETag and user metadata. */
  private record Seen(String content, String etag, Map<String, String> metadata) {
  }

  private Seen seen(String bucket, String key) {
    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket(bucket).key(key));
    return new Seen(got.asUtf8String(), got.response().eTag(), got.response().metadata());
  }

  private List<String> keys(String bucket) {
    return s3.listObjectsV2(l -> l.bucket(bucket)).contents().stream().map(S3Object::key).toList();
  }

  private boolean exists(String bucket) {
    return raw.send("HEAD", "/" + bucket).status() != 404;
  }

  @Test
  void noSubResourceChangesAnythingButItsOwnOperation() {
    s3.createBucket(b -> b.bucket("walk"));
    s3.putObject(p -> p.bucket("walk").key("obj").metadata(Map.of("kept", "yes")), RequestBody.fromString(CONTENT));
    Seen before = seen("walk", "obj");
    List<String> wrong = new ArrayList<>();
    for (String subResource : SUB_RESOURCES) {
      for (String method : METHODS) {
        String body = method.equals("PUT") || method.equals("POST") ? "<junk>not what S3 expects</junk>" : null;
        check(wrong, method, "object", subResource, raw.send(method, "/walk/obj?" + subResource, Map.of(), body));
        assertEquals(before, seen("walk", "obj"), method + " /walk/obj?" + subResource + " changed the object");
        check(wrong, method, "bucket", subResource, raw.send(method, "/walk?" + subResource, Map.of(), body));
        assertEquals(List.of("obj"), keys("walk"), method + " /walk?" + subResource + " changed the bucket");
        raw.send(method, "/walk-missing?" + subResource, Map.of(), body);
        assertFalse(exists("walk-missing"), method + " /walk-missing?" + subResource + " created the bucket");
      }
    }
    assertTrue(wrong.isEmpty(), "not answered NotImplemented although not served: " + wrong);
  }

  /** A request the gateway does not serve must be answered 501 NotImplemented (HEAD: the status alone). */
  private static void check(List<String> wrong, String method, String level, String subResource,
      S3RawClient.Response response) {
    String route = method + " " + level + "?" + subResource;
    boolean notImplemented = response.status() == 501
        && (method.equals("HEAD") || response.errorCode().equals("NotImplemented"));
    if (!SERVED.contains(route) && !notImplemented) {
      wrong.add(route + " -> " + response.status() + " " + response.errorCode());
    }
  }

  @Test
  void objectAclLegalHoldAndRetentionLeaveTheObjectIntact() {
    s3.createBucket(b -> b.bucket("acl-safety"));
    s3.putObject(p -> p.bucket("acl-safety").key("obj"), RequestBody.fromString(CONTENT));
    Seen before = seen("acl-safety", "obj");
    s3.putObjectAcl(a -> a.bucket("acl-safety").key("obj").acl("private"));
    assertEquals(before, seen("acl-safety", "obj"), "setting the ACL left the object as it was");
    assertEquals(400, assertThrows(S3Exception.class, () -> s3.putObjectAcl(a -> a.bucket("acl-safety").key("obj")
        .grantRead("id=somebody"))).statusCode(), "a grant to a user nobody is");
    assertEquals(501, assertThrows(S3Exception.class, () -> s3.putObjectLegalHold(h -> h.bucket("acl-safety")
        .key("obj").legalHold(l -> l.status(ObjectLockLegalHoldStatus.ON)))).statusCode());
    assertEquals(501, assertThrows(S3Exception.class, () -> s3.putObjectRetention(r -> r.bucket("acl-safety")
        .key("obj").retention(t -> t.mode(ObjectLockRetentionMode.GOVERNANCE)
            .retainUntilDate(java.time.Instant.now().plus(Duration.ofDays(1)))))).statusCode());
    assertEquals(before, seen("acl-safety", "obj"));
  }

  @Test
  void bucketConfigurationsNeverCreateTheBucket() {
    List<Runnable> puts = List.of(
        () -> s3.putBucketVersioning(v -> v.bucket("never-made").versioningConfiguration(c -> c.status("Enabled"))),
        () -> s3.putBucketAcl(a -> a.bucket("never-made").acl("private")),
        () -> s3.putBucketPolicy(p -> p.bucket("never-made").policy("{}")),
        () -> s3.putBucketTagging(t -> t.bucket("never-made").tagging(g -> g.tagSet(s -> s.key("a").value("b")))),
        () -> s3.putBucketCors(c -> c.bucket("never-made").corsConfiguration(r -> r.corsRules(x -> x
            .allowedMethods("GET").allowedOrigins("*")))));
    for (Runnable put : puts) {
      S3Exception e = assertThrows(S3Exception.class, put::run);
      assertTrue(e.statusCode() >= 400, e.toString());
      assertFalse(exists("never-made"));
    }
  }

  @Test
  void deleteObjectsDeletesExactlyTheKeysNamedWhiteSpaceIncluded() {
    s3.createBucket(b -> b.bucket("spaces"));
    for (String key : List.of("ws", "ws ", " ", " ws")) {
      s3.putObject(p -> p.bucket("spaces").key(key), RequestBody.fromString("[" + key + "]"));
    }
    s3.deleteObjects(d -> d.bucket("spaces").delete(x -> x.objects(ObjectIdentifier.builder().key("ws ").build(),
        ObjectIdentifier.builder().key(" ").build())));
    assertEquals(List.of(" ws", "ws"), keys("spaces"));
    assertEquals("[ws]", seen("spaces", "ws").content());
  }

  @Test
  void torrentAndAttributesNeverAnswerTheObjectsBytes() {
    s3.createBucket(b -> b.bucket("reads"));
    s3.putObject(p -> p.bucket("reads").key("obj"), RequestBody.fromString(CONTENT));
    S3RawClient.Response torrent = raw.send("GET", "/reads/obj?torrent");
    assertEquals(501, torrent.status());
    assertFalse(torrent.body().contains(CONTENT), "torrent answered the object's bytes");
    S3RawClient.Response attributes = raw.send("GET", "/reads/obj?attributes", Map.of("x-amz-object-attributes",
        "ETag,ObjectSize"), null);
    assertEquals(200, attributes.status(), attributes.body());
    assertFalse(attributes.body().contains(CONTENT), "attributes answered the object's bytes");
    assertTrue(attributes.body().contains("<ObjectSize>" + CONTENT.length() + "</ObjectSize>"), attributes.body());
  }
}
