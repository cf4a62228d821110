package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.VolumeInfo;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.TaggingDirective;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/** The S3 gateway on a mini cluster, driven by the AWS SDK for Java v2: no mock anywhere. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3GatewayIT {
  private static final int MB = 1 << 20;

  private S3Cluster cluster;
  private TroposClient tropos;
  private S3Secret alice;
  private S3Client s3;

  @BeforeAll
  void start(@TempDir Path dir) throws Exception {
    cluster = new S3Cluster(dir);
    tropos = cluster.tropos();
    alice = cluster.secret("alice");
    s3 = client("alice", alice.getSecret());
  }

  private S3Client client(String accessId, String secret) {
    return cluster.client(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessId, secret)));
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

  private static byte[] random(int size, long seed) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }

  /**
   * Clients that give up on a large GET part way close the gateway's read of the block, and the datanode's direct
   * read (pieces read ahead, docs/design.md "Data path") mid-transfer; the reads after them are whole and prompt.
   */
  @Test
  void getsAbandonedPartWayLeaveTheNextOnesWhole() throws Exception {
    s3.createBucket(b -> b.bucket("abandoned"));
    byte[] data = random(24 * MB + 5, 7);
    s3.putObject(p -> p.bucket("abandoned").key("large"), RequestBody.fromBytes(data));
    assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
      for (int i = 0; i < 5; i++) {
        ResponseInputStream<GetObjectResponse> in = s3.getObject(g -> g.bucket("abandoned").key("large"));
        assertEquals(MB, in.readNBytes(MB).length);
        in.abort();
      }
      for (int i = 0; i < 3; i++) {
        assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("abandoned").key("large")).asByteArray());
      }
    });
  }

  @Test
  void bucketsAndObjectsRoundTripWithMetadataRangesAndListings() throws Exception {
    s3.createBucket(b -> b.bucket("data"));
    assertTrue(s3.listBuckets().buckets().stream().anyMatch(b -> b.name().equals("data")));
    byte[] big = random(9 * MB + 17, 1);
    s3.putObject(p -> p.bucket("data").key("dir/big.bin").contentType("application/x-test")
        .metadata(Map.of("origin", "it")), RequestBody.fromBytes(big));
    ResponseBytes<GetObjectResponse> back = s3.getObjectAsBytes(g -> g.bucket("data").key("dir/big.bin"));
    assertArrayEquals(big, back.asByteArray());
    assertEquals("application/x-test", back.response().contentType());
    assertEquals("it", back.response().metadata().get("origin"));

    byte[] range = s3.getObjectAsBytes(g -> g.bucket("data").key("dir/big.bin").range("bytes=4194300-4194310"))
        .asByteArray();
    assertArrayEquals(java.util.Arrays.copyOfRange(big, 4194300, 4194311), range);
    HeadObjectResponse head = s3.headObject(h -> h.bucket("data").key("dir/big.bin"));
    assertEquals(big.length, head.contentLength());
    assertEquals(back.response().eTag(), head.eTag());

    for (String key : List.of("a.txt", "dir/x.txt", "dir/sub/y.txt", "z.txt")) {
      s3.putObject(p -> p.bucket("data").key(key), RequestBody.fromString(key));
    }
    ListObjectsV2Response top = s3.listObjectsV2(l -> l.bucket("data").delimiter("/"));
    assertEquals(List.of("a.txt", "z.txt"), top.contents().stream().map(S3Object::key).toList());
    assertEquals(List.of("dir/"), top.commonPrefixes().stream().map(p -> p.prefix()).toList());
    List<String> paged = s3.listObjectsV2Paginator(l -> l.bucket("data").maxKeys(2)).contents().stream()
        .map(S3Object::key).toList();
    assertEquals(List.of("a.txt", "dir/big.bin", "dir/sub/y.txt", "dir/x.txt", "z.txt"), paged);

    S3Exception notEmpty = assertThrows(S3Exception.class, () -> s3.deleteBucket(d -> d.bucket("data")));
    assertEquals("BucketNotEmpty", notEmpty.awsErrorDetails().errorCode());
    s3.deleteObject(d -> d.bucket("data").key("a.txt"));
    S3Exception gone = assertThrows(S3Exception.class, () -> s3.getObjectAsBytes(g -> g.bucket("data")
        .key("a.txt")));
    assertEquals("NoSuchKey", gone.awsErrorDetails().errorCode());
    assertEquals(404, gone.statusCode());
  }

  @Test
  void bodiesSentWholeWithTheirSha256AreAcceptedToo() {
    s3.createBucket(b -> b.bucket("plain"));
    byte[] data = random(3 * MB + 5, 2);
    try (S3Client plain = S3Client.builder().endpointOverride(cluster.endpoint())
        .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            "alice", alice.getSecret())))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).chunkedEncodingEnabled(false)
            .build())
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED).build()) {
      plain.putObject(p -> p.bucket("plain").key("whole.bin"), RequestBody.fromBytes(data));
    }
    assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("plain").key("whole.bin")).asByteArray());
  }

  @Test
  void multipartPartsJoinAndTheEtagIsTheMd5OfTheParts() throws Exception {
    s3.createBucket(b -> b.bucket("multi"));
    byte[] data = random(11 * MB + 3, 3);
    String id = s3.createMultipartUpload(c -> c.bucket("multi").key("joined.bin").contentType("text/x-joined"))
        .uploadId();
    int[][] ranges = {{0, 5 * MB}, {5 * MB, 10 * MB}, {10 * MB, data.length}};
    List<CompletedPart> parts = new java.util.ArrayList<>();
    java.security.MessageDigest md5s = java.security.MessageDigest.getInstance("MD5");
    for (int i = 0; i < ranges.length; i++) {
      byte[] part = java.util.Arrays.copyOfRange(data, ranges[i][0], ranges[i][1]);
      int number = i + 1;
      String etag = s3.uploadPart(u -> u.bucket("multi").key("joined.bin").uploadId(id).partNumber(number),
          RequestBody.fromBytes(part)).eTag();
      md5s.update(java.security.MessageDigest.getInstance("MD5").digest(part));
      parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
    }
    assertEquals(3, s3.listParts(l -> l.bucket("multi").key("joined.bin").uploadId(id)).parts().size());
    assertEquals(List.of(id), s3.listMultipartUploads(l -> l.bucket("multi")).uploads().stream()
        .map(MultipartUpload::uploadId).toList());
    S3Exception small = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(c -> c.bucket("multi")
        .key("joined.bin").uploadId(id).multipartUpload(m -> m.parts(parts.get(2), parts.get(0)))));
    assertEquals("InvalidPartOrder", small.awsErrorDetails().errorCode());
    String etag = s3.completeMultipartUpload(c -> c.bucket("multi").key("joined.bin").uploadId(id)
        .multipartUpload(m -> m.parts(parts))).eTag();
    assertEquals("\"" + java.util.HexFormat.of().formatHex(md5s.digest()) + "-3\"", etag);
    ResponseBytes<GetObjectResponse> back = s3.getObjectAsBytes(g -> g.bucket("multi").key("joined.bin"));
    assertArrayEquals(data, back.asByteArray());
    assertEquals("text/x-joined", back.response().contentType());

    String aborted = s3.createMultipartUpload(c -> c.bucket("multi").key("never")).uploadId();
    s3.abortMultipartUpload(a -> a.bucket("multi").key("never").uploadId(aborted));
    assertEquals("NoSuchUpload", assertThrows(S3Exception.class, () -> s3.uploadPart(u -> u.bucket("multi")
        .key("never").uploadId(aborted).partNumber(1), RequestBody.fromString("x"))).awsErrorDetails().errorCode());
  }

  @Test
  void aCopySharesTheSourcesBlocksAndDeleteObjectsRemovesMany() throws Exception {
    s3.createBucket(b -> b.bucket("copies"));
    byte[] data = random(6 * MB, 4);
    s3.putObject(p -> p.bucket("copies").key("src").metadata(Map.of("a", "1")), RequestBody.fromBytes(data));
    s3.copyObject(c -> c.sourceBucket("copies").sourceKey("src").destinationBucket("copies").destinationKey("kept"));
    s3.copyObject(c -> c.sourceBucket("copies").sourceKey("src").destinationBucket("copies").destinationKey("new")
        .metadataDirective(MetadataDirective.REPLACE).metadata(Map.of("b", "2")));
    assertEquals(tropos.getKey("s3v", "copies", "src").getBlocksList(),
        tropos.getKey("s3v", "copies", "kept").getBlocksList(), "the copy references the source's blocks");
    assertEquals(Map.of("a", "1"), s3.headObject(h -> h.bucket("copies").key("kept")).metadata());
    HeadObjectResponse replaced = s3.headObject(h -> h.bucket("copies").key("new"));
    assertEquals(Map.of("b", "2"), replaced.metadata());
    assertEquals(s3.headObject(h -> h.bucket("copies").key("src")).eTag(), replaced.eTag());
    assertEquals(412, assertThrows(S3Exception.class, () -> s3.copyObject(c -> c.sourceBucket("copies")
        .sourceKey("src").destinationBucket("copies").destinationKey("never").copySourceIfMatch("\"0\"")))
        .statusCode());
    s3.copyObject(c -> c.sourceBucket("copies").sourceKey("src").destinationBucket("copies").destinationKey("new")
        .copySourceIfMatch(replaced.eTag()).metadataDirective(MetadataDirective.REPLACE).contentEncoding("gzip")
        .cacheControl("max-age=60"));
    HeadObjectResponse encoded = s3.headObject(h -> h.bucket("copies").key("new"));
    assertEquals("gzip", encoded.contentEncoding());
    assertEquals("max-age=60", encoded.cacheControl());
    s3.deleteObjects(d -> d.bucket("copies").delete(x -> x.quiet(true).objects(
        ObjectIdentifier.builder().key("src").build(), ObjectIdentifier.builder().key("new").build(),
        ObjectIdentifier.builder().key("missing").build())));
    assertEquals(List.of("kept"), s3.listObjectsV2(l -> l.bucket("copies")).contents().stream().map(S3Object::key)
        .toList());
    assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("copies").key("kept")).asByteArray(),
        "deleting the source left the shared blocks to the copy");
  }

  @Test
  void uploadPartCopyReferencesByteRangesOfTheSource() throws Exception {
    s3.createBucket(b -> b.bucket("ranges"));
    byte[] data = random(13 * MB + 7, 7);
    s3.putObject(p -> p.bucket("ranges").key("source"), RequestBody.fromBytes(data));
    String id = s3.createMultipartUpload(c -> c.bucket("ranges").key("assembled")).uploadId();
    long[][] ranges = {{3, 6 * MB + 2}, {6 * MB + 3, data.length - 1}};
    List<CompletedPart> parts = new java.util.ArrayList<>();
    for (int i = 0; i < ranges.length; i++) {
      int number = i + 1;
      String range = "bytes=" + ranges[i][0] + "-" + ranges[i][1];
      String etag = s3.uploadPartCopy(u -> u.sourceBucket("ranges").sourceKey("source").destinationBucket("ranges")
          .destinationKey("assembled").uploadId(id).partNumber(number).copySourceRange(range)).copyPartResult()
          .eTag();
      parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
    }
    s3.completeMultipartUpload(c -> c.bucket("ranges").key("assembled").uploadId(id)
        .multipartUpload(m -> m.parts(parts)));
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 3, data.length),
        s3.getObjectAsBytes(g -> g.bucket("ranges").key("assembled")).asByteArray(),
        "the parts are slices of the source's blocks, read at their offsets");
    s3.deleteObject(d -> d.bucket("ranges").key("source"));
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 3 * MB, 3 * MB + 100), s3.getObjectAsBytes(g -> g
        .bucket("ranges").key("assembled").range("bytes=" + (3 * MB - 3) + "-" + (3 * MB + 96))).asByteArray());
  }

  private static Map<String, String> tags(List<Tag> set) {
    Map<String, String> out = new java.util.TreeMap<>();
    set.forEach(t -> out.put(t.key(), t.value()));
    return out;
  }

  @Test
  void objectTagsAreSetWithAPutReplacedCopiedAndDeleted() {
    s3.createBucket(b -> b.bucket("tagged"));
    s3.putObject(p -> p.bucket("tagged").key("obj").tagging("team=data&tier=hot"), RequestBody.fromString("t"));
    assertEquals(Map.of("team", "data", "tier", "hot"), tags(s3.getObjectTagging(g -> g.bucket("tagged")
        .key("obj")).tagSet()));
    assertEquals(2, s3.getObject(g -> g.bucket("tagged").key("obj"), software.amazon.awssdk.core.sync
        .ResponseTransformer.toBytes()).response().tagCount());
    s3.putObjectTagging(p -> p.bucket("tagged").key("obj").tagging(t -> t.tagSet(Tag.builder().key("tier")
        .value("cold").build())));
    assertEquals(Map.of("tier", "cold"), tags(s3.getObjectTagging(g -> g.bucket("tagged").key("obj")).tagSet()));
    s3.copyObject(c -> c.sourceBucket("tagged").sourceKey("obj").destinationBucket("tagged").destinationKey("kept"));
    assertEquals(Map.of("tier", "cold"), tags(s3.getObjectTagging(g -> g.bucket("tagged").key("kept")).tagSet()));
    s3.copyObject(c -> c.sourceBucket("tagged").sourceKey("obj").destinationBucket("tagged").destinationKey("new")
        .taggingDirective(TaggingDirective.REPLACE).tagging("x=1"));
    assertEquals(Map.of("x", "1"), tags(s3.getObjectTagging(g -> g.bucket("tagged").key("new")).tagSet()));
    s3.deleteObjectTagging(d -> d.bucket("tagged").key("obj"));
    assertTrue(s3.getObjectTagging(g -> g.bucket("tagged").key("obj")).tagSet().isEmpty());
    assertEquals("InvalidTag", assertThrows(S3Exception.class, () -> s3.putObjectTagging(p -> p.bucket("tagged")
        .key("obj").tagging(t -> t.tagSet(Tag.builder().key("").value("v").build())))).awsErrorDetails()
        .errorCode());
  }

  @Test
  void aBucketOfAnotherVolumeLinkedIntoS3vIsServedAndDeletingTheLinkKeepsIt() throws Exception {
    tropos.createVolume(VolumeInfo.newBuilder().setName("warehouse").setOwner("alice").build());
    tropos.createBucket(BucketInfo.newBuilder().setVolume("warehouse").setName("tables")
        .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
    try (var out = tropos.createKey("warehouse", "tables", "sales/part-0", 5)) {
      out.write("hello".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    try {
      tropos.getVolume("s3v");
    } catch (org.tropos.common.rpc.OmException e) {
      tropos.createVolume(VolumeInfo.newBuilder().setName("s3v").setOwner("alice").build());
    }
    tropos.createBucket(BucketInfo.newBuilder().setVolume("s3v").setName("tables").setOwner("alice")
        .setSourceVolume("warehouse").setSourceBucket("tables").build());

    assertEquals(List.of("sales/", "sales/part-0"), s3.listObjectsV2(l -> l.bucket("tables")).contents().stream()
        .map(S3Object::key).toList(), "the directory as its folder marker, then its file");
    assertEquals("hello", s3.getObjectAsBytes(g -> g.bucket("tables").key("sales/part-0")).asUtf8String());
    s3.putObject(p -> p.bucket("tables").key("sales/part-1"), RequestBody.fromString("written through S3"));
    assertEquals(18, tropos.getKey("warehouse", "tables", "sales/part-1").getSize(), "the key is in the source");

    s3.deleteBucket(d -> d.bucket("tables"));
    assertEquals(List.of("sales/", "sales/part-0", "sales/part-1"), tropos.listKeys("warehouse", "tables", "sales/",
        "", 10).getKeysList().stream().map(org.tropos.proto.om.KeyInfo::getName).toList(),
        "deleting the link leaves the source's keys");
  }

  /** ListBuckets by pages of max-buckets, each after the previous page's continuation token, under a prefix. */
  @Test
  void listBucketsPagesByNameUnderAPrefix() {
    for (String name : List.of("page-c", "page-a", "page-e", "page-b", "page-d")) {
      s3.createBucket(b -> b.bucket(name));
    }
    List<String> seen = new java.util.ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      String from = token;
      var page = s3.listBuckets(l -> l.prefix("page-").maxBuckets(2).continuationToken(from));
      page.buckets().forEach(b -> seen.add(b.name()));
      token = page.continuationToken();
      pages++;
    } while (token != null);
    assertEquals(List.of("page-a", "page-b", "page-c", "page-d", "page-e"), seen);
    assertEquals(3, pages);
    assertEquals("InvalidArgument", assertThrows(S3Exception.class, () -> s3.listBuckets(l -> l.maxBuckets(0)))
        .awsErrorDetails().errorCode());
  }

  /** A bucket keeps the region its CreateBucketConfiguration named; one that named none is in us-east-1. */
  @Test
  void aBucketKeepsTheLocationItWasCreatedIn() {
    s3.createBucket(b -> b.bucket("placed").createBucketConfiguration(c -> c.locationConstraint("eu-west-1")));
    assertEquals("eu-west-1", s3.getBucketLocation(l -> l.bucket("placed")).locationConstraintAsString());
    assertEquals("eu-west-1", s3.headBucket(h -> h.bucket("placed")).bucketRegion());
    s3.createBucket(b -> b.bucket("unplaced"));
    String none = s3.getBucketLocation(l -> l.bucket("unplaced")).locationConstraintAsString();
    assertTrue(none == null || none.isEmpty(), none);
    assertEquals("us-east-1", s3.headBucket(h -> h.bucket("unplaced")).bucketRegion());
    assertEquals("InvalidLocationConstraint", assertThrows(S3Exception.class, () -> s3.createBucket(b -> b
        .bucket("misplaced").createBucketConfiguration(c -> c.locationConstraint("no such place")))).awsErrorDetails()
        .errorCode());
    assertEquals(404, assertThrows(S3Exception.class, () -> s3.headBucket(h -> h.bucket("misplaced"))).statusCode());
  }

  @Test
  void aWrongSecretIsRefusedAndAnotherUsersBucketIsClosed() {
    s3.createBucket(b -> b.bucket("private"));
    try (S3Client wrong = client("alice", alice.getSecret() + "x")) {
      S3Exception e = assertThrows(S3Exception.class, wrong::listBuckets);
      assertEquals("SignatureDoesNotMatch", e.awsErrorDetails().errorCode());
    }
    try (S3Client unknown = client("nobody", "secret")) {
      assertEquals("InvalidAccessKeyId", assertThrows(S3Exception.class, unknown::listBuckets)
          .awsErrorDetails().errorCode());
    }
    S3Secret bob = org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> cluster.secret("bob"));
    try (S3Client asBob = client("bob", bob.getSecret())) {
      S3Exception e = assertThrows(S3Exception.class, () -> asBob.putObject(p -> p.bucket("private").key("k"),
          RequestBody.fromString("x")));
      assertEquals("AccessDenied", e.awsErrorDetails().errorCode());
      assertTrue(asBob.listBuckets().buckets().stream().noneMatch(b -> b.name().equals("private")));
    }
  }

  @Test
  void aPresignedGetWorksWithoutCredentialsUntilItExpires() throws Exception {
    s3.createBucket(b -> b.bucket("shared"));
    s3.putObject(p -> p.bucket("shared").key("note.txt"), RequestBody.fromString("hello presigned"));
    try (S3Presigner presigner = S3Presigner.builder().endpointOverride(cluster.endpoint()).region(Region.US_EAST_1).serviceConfiguration(S3Configuration.builder()
        .pathStyleAccessEnabled(true).build()).credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("alice", alice.getSecret()))).build()) {
      URI url = presigner.presignGetObject(r -> r.signatureDuration(Duration.ofMinutes(5))
          .getObjectRequest(g -> g.bucket("shared").key("note.txt"))).url().toURI();
      HttpURLConnection get = (HttpURLConnection) url.toURL().openConnection();
      try (InputStream in = get.getInputStream()) {
        assertEquals(200, get.getResponseCode());
        assertEquals("hello presigned", new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
      HttpURLConnection tampered = (HttpURLConnection) URI.create(url.toString().replace("note.txt", "other.txt"))
          .toURL().openConnection();
      assertEquals(403, tampered.getResponseCode());
    }
  }
}
