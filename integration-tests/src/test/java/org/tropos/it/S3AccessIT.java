package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Canned ACLs and grants to named users through the AWS SDK v2, with the bucket's owner, a second user and an
 * anonymous client: what each may read, list and write, and the 404s and 403s S3 gives a caller who may or may not
 * learn that a key exists.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3AccessIT {
  private S3Cluster cluster;
  private S3Client owner;
  private S3Client other;
  private S3Client anonymous;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    owner = cluster.client("erin");
    other = cluster.client("frank");
    anonymous = cluster.client(AnonymousCredentialsProvider.create());
  }

  @AfterAll
  void stop() {
    for (S3Client client : new S3Client[] {owner, other, anonymous}) {
      if (client != null) {
        client.close();
      }
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static int status(Supplier<?> call) {
    return assertThrows(S3Exception.class, call::get).statusCode();
  }

  private static String code(Supplier<?> call) {
    return assertThrows(S3Exception.class, call::get).awsErrorDetails().errorCode();
  }

  private String read(S3Client client, String bucket, String key) {
    return client.getObjectAsBytes(g -> g.bucket(bucket).key(key)).asUtf8String();
  }

  private List<String> list(S3Client client, String bucket) {
    return client.listObjectsV2(l -> l.bucket(bucket)).contents().stream().map(S3Object::key).toList();
  }

  @Test
  void aPrivateBucketIsClosedToOthersAndAnonymousCallersLearnOnlyWhatExistsPublicly() {
    owner.createBucket(b -> b.bucket("closed"));
    owner.putObject(p -> p.bucket("closed").key("secret"), RequestBody.fromString("s"));
    assertEquals(403, status(() -> read(other, "closed", "secret")));
    assertEquals(403, status(() -> read(anonymous, "closed", "secret")));
    assertEquals(403, status(() -> list(anonymous, "closed")));
    assertEquals("AccessDenied", code(() -> read(anonymous, "closed", "missing")),
        "a caller who may not list the bucket must not learn the key is missing");
    assertEquals("NoSuchBucket", code(() -> read(anonymous, "no-such-bucket", "k")));
    assertEquals(403, status(() -> anonymous.putObject(p -> p.bucket("closed").key("x"),
        RequestBody.fromString("x"))));
    assertEquals(List.of("secret"), list(owner, "closed"), "nothing was written");
  }

  @Test
  void publicReadOpensReadingToEveryoneAndAuthenticatedReadToSignedCallers() {
    owner.createBucket(b -> b.bucket("gallery").acl(BucketCannedACL.PUBLIC_READ));
    owner.putObject(p -> p.bucket("gallery").key("open").acl(ObjectCannedACL.PUBLIC_READ),
        RequestBody.fromString("for everyone"));
    owner.putObject(p -> p.bucket("gallery").key("members").acl(ObjectCannedACL.AUTHENTICATED_READ),
        RequestBody.fromString("for users"));
    owner.putObject(p -> p.bucket("gallery").key("mine"), RequestBody.fromString("private"));
    assertEquals("for everyone", read(anonymous, "gallery", "open"));
    assertEquals(List.of("members", "mine", "open"), list(anonymous, "gallery"));
    assertEquals("NoSuchKey", code(() -> read(anonymous, "gallery", "missing")),
        "a caller who may list the bucket learns the key is missing");
    assertEquals("for users", read(other, "gallery", "members"));
    assertEquals(403, status(() -> read(anonymous, "gallery", "members")));
    assertEquals(403, status(() -> read(other, "gallery", "mine")));
    assertEquals(403, status(() -> other.putObject(p -> p.bucket("gallery").key("x"), RequestBody.fromString("x"))));

    owner.putObjectAcl(a -> a.bucket("gallery").key("mine").acl(ObjectCannedACL.PUBLIC_READ));
    assertEquals("private", read(anonymous, "gallery", "mine"), "the ACL changed, the content did not");
    GetObjectAclResponse acl = owner.getObjectAcl(a -> a.bucket("gallery").key("mine"));
    assertEquals("erin", acl.owner().id());
    assertTrue(acl.grants().stream().anyMatch(g -> g.permission() == Permission.READ && g.grantee().type()
        == Type.GROUP && g.grantee().uri().endsWith("/AllUsers")), acl.grants().toString());
    assertEquals(403, status(() -> other.putObjectAcl(a -> a.bucket("gallery").key("mine")
        .acl(ObjectCannedACL.PRIVATE))));
    assertEquals(403, status(() -> other.getBucketAcl(a -> a.bucket("gallery"))));
    List<Grant> bucketGrants = owner.getBucketAcl(a -> a.bucket("gallery")).grants();
    assertEquals(2, bucketGrants.size(), bucketGrants.toString());
  }

  @Test
  void publicReadWriteLetsOthersWriteAndTheWriterOwnsWhatItWrote() {
    owner.createBucket(b -> b.bucket("dropbox"));
    owner.putBucketAcl(a -> a.bucket("dropbox").acl(BucketCannedACL.PUBLIC_READ_WRITE));
    other.putObject(p -> p.bucket("dropbox").key("from-frank"), RequestBody.fromString("hello"));
    assertEquals("hello", read(other, "dropbox", "from-frank"));
    assertEquals("hello", read(owner, "dropbox", "from-frank"), "the bucket's owner reads what others wrote");
    assertEquals("frank", owner.getObjectAcl(a -> a.bucket("dropbox").key("from-frank")).owner().id());
    assertEquals(403, status(() -> read(anonymous, "dropbox", "from-frank")));
    owner.putBucketAcl(a -> a.bucket("dropbox").acl(BucketCannedACL.PRIVATE));
    assertEquals(403, status(() -> other.putObject(p -> p.bucket("dropbox").key("again"),
        RequestBody.fromString("x"))));
    assertEquals("InvalidArgument", code(() -> owner.putBucketAcl(a -> a.bucket("dropbox")
        .grantRead("id=nobody"))), "a grant to a user nobody is");
    assertEquals("UnresolvableGrantByEmailAddress", code(() -> owner.putBucketAcl(a -> a.bucket("dropbox")
        .grantRead("emailAddress=frank@example.com"))), "users have no email address to grant by");
    assertEquals(1, owner.getBucketAcl(a -> a.bucket("dropbox")).grants().size(),
        "the refused grants changed nothing: the owner's full control only");
  }

  /**
   * Grants to a named user, by x-amz-grant-* headers and by an AccessControlPolicy document: the user gets what
   * each names and nothing more; the owner stays the owner, and keeps its rights when its ACL lists none.
   */
  @Test
  void aGrantToANamedUserGivesItWhatTheGrantNamesAndNothingMore() {
    owner.createBucket(b -> b.bucket("shared").grantRead("id=frank"));
    owner.putObject(p -> p.bucket("shared").key("report"), RequestBody.fromString("r"));
    assertEquals(List.of("report"), list(other, "shared"), "READ on the bucket lists it");
    assertEquals(403, status(() -> list(anonymous, "shared")));
    assertEquals(403, status(() -> read(other, "shared", "report")), "the object's own ACL decides its reads");
    assertEquals(403, status(() -> other.putObject(p -> p.bucket("shared").key("x"), RequestBody.fromString("x"))));
    assertEquals(403, status(() -> other.getBucketAcl(a -> a.bucket("shared"))));

    owner.putBucketAcl(a -> a.bucket("shared").grantWrite("id=frank").grantReadACP("id=frank"));
    other.putObject(p -> p.bucket("shared").key("from-frank"), RequestBody.fromString("f"));
    List<Grant> grants = other.getBucketAcl(a -> a.bucket("shared")).grants();
    assertEquals(2, grants.size(), grants.toString());
    assertTrue(grants.stream().allMatch(g -> g.grantee().id().equals("frank")), grants.toString());
    assertEquals(403, status(() -> list(other, "shared")), "the new grants replaced READ");
    assertEquals(403, status(() -> other.putBucketAcl(a -> a.bucket("shared").acl(BucketCannedACL.PUBLIC_READ))),
        "READ_ACP does not change the ACL");

    owner.putObject(p -> p.bucket("shared").key("memo").grantRead("id=frank"), RequestBody.fromString("m"));
    assertEquals("m", read(other, "shared", "memo"));
    assertEquals(403, status(() -> read(anonymous, "shared", "memo")));
    assertEquals(403, status(() -> other.getObjectAcl(a -> a.bucket("shared").key("memo"))));

    GetObjectAclResponse memo = owner.getObjectAcl(a -> a.bucket("shared").key("memo"));
    owner.putObjectAcl(a -> a.bucket("shared").key("memo").accessControlPolicy(p -> p.owner(memo.owner())
        .grants(Grant.builder().grantee(g -> g.id("frank").type(Type.CANONICAL_USER))
            .permission(Permission.FULL_CONTROL).build())));
    other.putObjectAcl(a -> a.bucket("shared").key("memo").acl(ObjectCannedACL.PUBLIC_READ));
    assertEquals("m", read(anonymous, "shared", "memo"), "FULL_CONTROL let frank make it public");
    assertEquals("erin", owner.getObjectAcl(a -> a.bucket("shared").key("memo")).owner().id(),
        "changing the ACL does not change the owner");
    assertEquals(403, status(() -> other.getObjectAcl(a -> a.bucket("shared").key("memo"))),
        "the canned ACL frank set replaced its own grant");

    owner.putBucketAcl(a -> a.bucket("shared").accessControlPolicy(p -> p.owner(memo.owner()).grants(List.of())));
    assertEquals(List.of(), owner.getBucketAcl(a -> a.bucket("shared")).grants(), "every grant revoked");
    assertEquals(403, status(() -> other.putObject(p -> p.bucket("shared").key("y"), RequestBody.fromString("y"))));
    assertEquals(List.of("from-frank", "memo", "report"), list(owner, "shared"), "the owner keeps its rights");
    owner.putBucketAcl(a -> a.bucket("shared").acl(BucketCannedACL.PRIVATE));
    assertEquals(1, owner.getBucketAcl(a -> a.bucket("shared")).grants().size());
  }

  /**
   * The gateway writes on a bucket it read moments before (RecentBuckets): a grant takes effect at once, and so do
   * a revocation, a new owner under the same name, and a PUT naming another expected owner.
   */
  @Test
  void aWriteSeesTheBucketAsItIsNowNotAsTheGatewayLastReadIt() {
    owner.createBucket(b -> b.bucket("turnstile"));
    owner.putObject(p -> p.bucket("turnstile").key("first"), RequestBody.fromString("x"));
    assertEquals(403, status(() -> other.putObject(p -> p.bucket("turnstile").key("early"),
        RequestBody.fromString("x"))));
    owner.putBucketAcl(a -> a.bucket("turnstile").acl(BucketCannedACL.PUBLIC_READ_WRITE));
    other.putObject(p -> p.bucket("turnstile").key("granted"), RequestBody.fromString("x"));
    owner.putBucketAcl(a -> a.bucket("turnstile").acl(BucketCannedACL.PRIVATE));
    assertEquals(403, status(() -> other.putObject(p -> p.bucket("turnstile").key("revoked"),
        RequestBody.fromString("x"))));
    assertEquals("AccessDenied", code(() -> owner.putObject(p -> p.bucket("turnstile").key("k")
        .expectedBucketOwner("frank"), RequestBody.fromString("x"))));
    assertEquals(List.of("first", "granted"), list(owner, "turnstile"));

    owner.createBucket(b -> b.bucket("swap"));
    owner.putObject(p -> p.bucket("swap").key("a"), RequestBody.fromString("x"));
    owner.deleteObject(d -> d.bucket("swap").key("a"));
    owner.deleteBucket(d -> d.bucket("swap"));
    other.createBucket(b -> b.bucket("swap"));
    assertEquals(403, status(() -> owner.putObject(p -> p.bucket("swap").key("b"), RequestBody.fromString("x"))),
        "the bucket under that name is another user's now");
    assertEquals(List.of(), list(other, "swap"));
  }

  @Test
  void onlyTheBucketsOwnerDeletesVersionsAndMarkersStayHiddenFromStrangers() {
    owner.createBucket(b -> b.bucket("history").acl(BucketCannedACL.PUBLIC_READ_WRITE));
    owner.putBucketVersioning(v -> v.bucket("history").versioningConfiguration(c -> c.status("Enabled")));
    String version = owner.putObject(p -> p.bucket("history").key("k"), RequestBody.fromString("v1")).versionId();
    assertEquals(403, status(() -> other.deleteObject(d -> d.bucket("history").key("k").versionId(version))));
    assertEquals(403, status(() -> anonymous.deleteObject(d -> d.bucket("history").key("k").versionId(version))));
    other.deleteObject(d -> d.bucket("history").key("k"));
    assertEquals("v1", owner.getObjectAsBytes(g -> g.bucket("history").key("k").versionId(version))
        .asUtf8String(), "a delete marker hides the version, nobody but the owner removes it");

    owner.createBucket(b -> b.bucket("quiet"));
    owner.putBucketVersioning(v -> v.bucket("quiet").versioningConfiguration(c -> c.status("Enabled")));
    owner.putObject(p -> p.bucket("quiet").key("gone"), RequestBody.fromString("x"));
    owner.deleteObject(d -> d.bucket("quiet").key("gone"));
    S3Exception stranger = assertThrows(S3Exception.class, () -> read(anonymous, "quiet", "gone"));
    assertEquals(403, stranger.statusCode());
    assertTrue(stranger.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-delete-marker").isEmpty(),
        "a caller who may not list the bucket learns nothing of its delete markers");
  }

  @Test
  void anAnonymousAwsChunkedUploadIsStoredDecoded() {
    owner.createBucket(b -> b.bucket("inbox").acl(BucketCannedACL.PUBLIC_READ_WRITE));
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update("hello".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    String checksum = java.util.Base64.getEncoder().encodeToString(java.nio.ByteBuffer.allocate(4)
        .putInt((int) crc.getValue()).array());
    try (S3RawClient unsigned = new S3RawClient(cluster.endpoint(), null, null)) {
      S3RawClient.Response put = unsigned.send("PUT", "/inbox/note", java.util.Map.of("Content-Encoding",
          "aws-chunked", "x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
          "x-amz-decoded-content-length", "5", "x-amz-trailer", "x-amz-checksum-crc32"),
          "5\r\nhello\r\n0\r\nx-amz-checksum-crc32:" + checksum + "\r\n\r\n");
      assertEquals(200, put.status(), put.body());
    }
    assertEquals("hello", read(owner, "inbox", "note"));
  }

  /** A GET or HEAD finds its bucket with its key: the bucket's checks still hold, whether or not the key exists. */
  @Test
  void aReadNamingAnotherExpectedBucketOwnerIsDeniedAndAMissingBucketIsNoSuchBucket() {
    owner.createBucket(b -> b.bucket("owned"));
    owner.putObject(p -> p.bucket("owned").key("k"), RequestBody.fromString("v"));
    assertEquals("v", owner.getObjectAsBytes(g -> g.bucket("owned").key("k").expectedBucketOwner("erin"))
        .asUtf8String());
    assertEquals("AccessDenied", code(() -> owner.getObjectAsBytes(g -> g.bucket("owned").key("k")
        .expectedBucketOwner("frank"))));
    assertEquals(403, status(() -> owner.headObject(h -> h.bucket("owned").key("missing")
        .expectedBucketOwner("frank"))));
    assertEquals("NoSuchKey", code(() -> owner.getObjectAsBytes(g -> g.bucket("owned").key("missing")
        .expectedBucketOwner("erin"))));
    assertEquals("NoSuchBucket", code(() -> owner.getObjectAsBytes(g -> g.bucket("nowhere").key("k"))));
    assertEquals("NoSuchBucket", code(() -> anonymous.getObjectAsBytes(g -> g.bucket("nowhere").key("k"))));
  }
}
