package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.KeyInputStream;
import org.tropos.client.TroposClient;
import org.tropos.om.kms.HadoopKms;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.tools.Tropos;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionByDefault;

/**
 * SSE-KMS against Hadoop's own KMS server, run here as a process of its own ({@link TestKms}): each object's data
 * key is made by the KMS under the key the request (or its bucket's default) names, kept by the OM only as the KMS
 * encrypted it, and decrypted by the KMS for each writer and reader. Objects read back bit-exact (whole, in ranges,
 * multipart, on the native path); neither their plaintext nor their data keys are in any file of the cluster; what
 * SSE-KMS cannot do (no key, an unknown key, DSSE, the KMS down) is refused with nothing stored or served.
 */
class SseKmsIT {
  private static final String KEY = "warehouse-key";
  private static final String OTHER_KEY = "finance-key";
  private static final int LARGE = 3 * 1024 * 1024 + 4321;

  @TempDir
  static Path dir;
  private static TestKms kms;
  private static MiniCluster mini;
  private static TroposClient admin;
  private static S3Client s3;

  @BeforeAll
  static void start() throws Exception {
    kms = TestKms.start(dir.resolve("kms"));
    kms.createKey(KEY);
    kms.createKey(OTHER_KEY);
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true",
        "hadoop.security.key.provider.path", kms.providerPath()));
    mini.awaitOpenPipelines(1);
    admin = TroposClient.create(mini.clientConfig());
    String secret = admin.getS3Secret("erin", true).getSecret();
    s3 = S3Cluster.clientOf(URI.create(mini.cluster().s3Endpoint()), "erin", secret);
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {s3, admin, mini, kms}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        // Closing the rest matters more.
      }
    }
  }

  @Test
  void anObjectEncryptedUnderAKmsKeyReadsBackAndNeitherItNorItsDataKeyIsOnDisk() throws Exception {
    s3.createBucket(b -> b.bucket("asked"));
    byte[] large = plaintext("large", LARGE);
    PutObjectResponse put = s3.putObject(p -> p.bucket("asked").key("large")
        .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(KEY), RequestBody.fromBytes(large));
    assertEquals(ServerSideEncryption.AWS_KMS, put.serverSideEncryption());
    assertEquals(KEY, put.ssekmsKeyId());

    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket("asked").key("large"));
    assertArrayEquals(large, got.asByteArray());
    assertEquals(ServerSideEncryption.AWS_KMS, got.response().serverSideEncryption());
    assertEquals(KEY, got.response().ssekmsKeyId());
    HeadObjectResponse head = s3.headObject(h -> h.bucket("asked").key("large"));
    assertEquals(LARGE, head.contentLength());
    assertEquals(KEY, head.ssekmsKeyId());
    byte[] range = s3.getObjectAsBytes(g -> g.bucket("asked").key("large").range("bytes=65530-200000"))
        .asByteArray();
    assertArrayEquals(Arrays.copyOfRange(large, 65_530, 200_001), range, "a range across segments");

    KeyInfo key = admin.getKey("s3v", "asked", "large");
    assertEquals(EncryptionKind.SSE_KMS, key.getEncryption().getKind());
    assertEquals(KEY, key.getEncryption().getKms().getKeyName());
    assertTrue(key.getEncryption().getWrappedKey().isEmpty(), "no key of the OM's wraps it");
    try (KeyInputStream in = admin.readKey("s3v", "asked", "large")) {
      assertArrayEquals(large, in.readAllBytes(), "the native path reads it too");
    }
    byte[] dataKey = HadoopKms.of(kms.providerPath(), "test").orElseThrow().decrypt(key.getEncryption().getKms());
    assertEquals(32, dataKey.length);
    assertFalse(onDisk(large, large.length / 2, 64), "the plaintext is nowhere in the cluster's files");
    assertFalse(onDisk(dataKey, 0, dataKey.length), "nor is its data key, which only the KMS decrypts");
  }

  @Test
  void aBucketsDefaultKmsKeyEncryptsWhatIsWrittenWithoutAskingMultipartAndNativeToo() throws Exception {
    s3.createBucket(b -> b.bucket("defaulted"));
    s3.putBucketEncryption(b -> b.bucket("defaulted").serverSideEncryptionConfiguration(c -> c.rules(r -> r
        .applyServerSideEncryptionByDefault(ServerSideEncryptionByDefault.builder()
            .sseAlgorithm(ServerSideEncryption.AWS_KMS).kmsMasterKeyID(KEY).build()))));
    assertEquals(KEY, s3.getBucketEncryption(g -> g.bucket("defaulted")).serverSideEncryptionConfiguration()
        .rules().get(0).applyServerSideEncryptionByDefault().kmsMasterKeyID());
    byte[] small = plaintext("small", 1000);
    assertEquals(KEY, s3.putObject(p -> p.bucket("defaulted").key("small"), RequestBody.fromBytes(small))
        .ssekmsKeyId());
    assertArrayEquals(small, s3.getObjectAsBytes(g -> g.bucket("defaulted").key("small")).asByteArray());

    byte[] part1 = plaintext("part-one", 5 * 1024 * 1024);
    byte[] part2 = plaintext("part-two", 70_000);
    String upload = s3.createMultipartUpload(c -> c.bucket("defaulted").key("joined")).uploadId();
    String etag1 = s3.uploadPart(u -> u.bucket("defaulted").key("joined").uploadId(upload).partNumber(1),
        RequestBody.fromBytes(part1)).eTag();
    String etag2 = s3.uploadPart(u -> u.bucket("defaulted").key("joined").uploadId(upload).partNumber(2),
        RequestBody.fromBytes(part2)).eTag();
    s3.completeMultipartUpload(c -> c.bucket("defaulted").key("joined").uploadId(upload).multipartUpload(m -> m
        .parts(CompletedPart.builder().partNumber(1).eTag(etag1).build(),
            CompletedPart.builder().partNumber(2).eTag(etag2).build())));
    byte[] joined = concat(part1, part2);
    assertArrayEquals(joined, s3.getObjectAsBytes(g -> g.bucket("defaulted").key("joined")).asByteArray());
    assertArrayEquals(Arrays.copyOfRange(joined, part1.length - 10, part1.length + 10), s3.getObjectAsBytes(g -> g
        .bucket("defaulted").key("joined").range("bytes=" + (part1.length - 10) + "-" + (part1.length + 9)))
        .asByteArray(), "a range across the parts");
    assertEquals(KEY, admin.getKey("s3v", "defaulted", "joined").getEncryption().getKms().getKeyName());

    byte[] nativeData = plaintext("native", 4000);
    try (OutputStream out = admin.createKey(OpenKeyRequest.newBuilder().setVolume("s3v").setBucket("defaulted")
        .setKey("native").setSize(nativeData.length).build())) {
      out.write(nativeData);
    }
    assertEquals(EncryptionKind.SSE_KMS, admin.getKey("s3v", "defaulted", "native").getEncryption().getKind());
    assertArrayEquals(nativeData, s3.getObjectAsBytes(g -> g.bucket("defaulted").key("native")).asByteArray());
    assertFalse(onDisk(part1, part1.length / 2, 64) || onDisk(nativeData, nativeData.length / 2, 64));
  }

  @Test
  void aNativeBucketsKmsKeyIsSetWithTheCommandLineAsOzonesBucketKeyIs() throws Exception {
    Path conf = mini.clientConfDir(dir.resolve("cli"));
    assertEquals(0, sh(conf, "volume", "create", "/tde"));
    assertEquals(1, sh(conf, "bucket", "create", "/tde/keyless", "--encryption", "aws:kms"), "no key named");
    assertEquals(1, sh(conf, "bucket", "create", "/tde/unknown", "--bucketkey", "no-such-key"));
    assertEquals(0, sh(conf, "bucket", "create", "/tde/vault", "--bucketkey", KEY));
    Path local = dir.resolve("secret.txt");
    byte[] data = plaintext("cli-secret", 100_000);
    Files.write(local, data);
    assertEquals(0, sh(conf, "key", "put", "/tde/vault/secret", local.toString()));
    KeyInfo key = admin.getKey("tde", "vault", "secret");
    assertEquals(EncryptionKind.SSE_KMS, key.getEncryption().getKind());
    assertEquals(KEY, key.getEncryption().getKms().getKeyName());
    Path back = dir.resolve("secret.back");
    assertEquals(0, sh(conf, "key", "get", "/tde/vault/secret", back.toString()));
    assertArrayEquals(data, Files.readAllBytes(back));
    assertEquals(List.of("vault"), admin.listBuckets("tde", "").stream().map(b -> b.getName()).toList(),
        "nothing was made of the refused buckets");
  }

  private static int sh(Path conf, String... args) {
    String[] all = Stream.concat(Stream.of("sh"), Stream.concat(Stream.of(args), Stream.of("--conf",
        conf.toString()))).toArray(String[]::new);
    return Tropos.run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), all);
  }

  @Test
  void copiesToAnotherKeyOrEncryptionAreWrittenAnew() throws Exception {
    s3.createBucket(b -> b.bucket("copies"));
    byte[] data = plaintext("copied", 300_000);
    s3.putObject(p -> p.bucket("copies").key("source").serverSideEncryption(ServerSideEncryption.AWS_KMS)
        .ssekmsKeyId(KEY), RequestBody.fromBytes(data));
    CopyObjectResponse other = s3.copyObject(c -> c.sourceBucket("copies").sourceKey("source")
        .destinationBucket("copies").destinationKey("other").serverSideEncryption(ServerSideEncryption.AWS_KMS)
        .ssekmsKeyId(OTHER_KEY));
    assertEquals(OTHER_KEY, other.ssekmsKeyId());
    CopyObjectResponse s3Managed = s3.copyObject(c -> c.sourceBucket("copies").sourceKey("source")
        .destinationBucket("copies").destinationKey("managed").serverSideEncryption(ServerSideEncryption.AES256));
    assertEquals(ServerSideEncryption.AES256, s3Managed.serverSideEncryption());
    for (String copy : List.of("other", "managed")) {
      assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("copies").key(copy)).asByteArray(), copy);
    }
    assertEquals(OTHER_KEY, admin.getKey("s3v", "copies", "other").getEncryption().getKms().getKeyName());
  }

  @Test
  void whatSseKmsCannotDoIsRefusedAndNothingIsStoredOrServed() throws Exception {
    s3.createBucket(b -> b.bucket("refused"));
    assertEquals(400, status(() -> s3.putObject(p -> p.bucket("refused").key("no-key")
        .serverSideEncryption(ServerSideEncryption.AWS_KMS), RequestBody.fromString("x"))), "no key named");
    assertEquals(400, status(() -> s3.putObject(p -> p.bucket("refused").key("unknown")
        .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId("no-such-key"), RequestBody.fromString("x"))));
    assertEquals(501, status(() -> s3.putObject(p -> p.bucket("refused").key("dsse")
        .serverSideEncryption(ServerSideEncryption.AWS_KMS_DSSE).ssekmsKeyId(KEY), RequestBody.fromString("x"))));
    assertEquals(400, status(() -> s3.putBucketEncryption(b -> b.bucket("refused")
        .serverSideEncryptionConfiguration(c -> c.rules(r -> r.applyServerSideEncryptionByDefault(
            ServerSideEncryptionByDefault.builder().sseAlgorithm(ServerSideEncryption.AWS_KMS).build()))))),
        "a default aws:kms names its key");
    byte[] data = plaintext("kept", 2000);
    s3.putObject(p -> p.bucket("refused").key("kept").serverSideEncryption(ServerSideEncryption.AWS_KMS)
        .ssekmsKeyId(KEY), RequestBody.fromBytes(data));

    kms.stop();
    try {
      assertEquals(503, status(() -> s3.getObjectAsBytes(g -> g.bucket("refused").key("kept"))),
          "nothing is served while the KMS is down");
      assertEquals(503, status(() -> s3.putObject(p -> p.bucket("refused").key("while-down")
          .serverSideEncryption(ServerSideEncryption.AWS_KMS).ssekmsKeyId(KEY), RequestBody.fromString("x"))));
    } finally {
      kms.restart();
    }
    assertEquals(List.of("kept"), s3.listObjectsV2(l -> l.bucket("refused")).contents().stream()
        .map(o -> o.key()).toList(), "nothing refused was stored");
    assertArrayEquals(data, s3.getObjectAsBytes(g -> g.bucket("refused").key("kept")).asByteArray(),
        "and once the KMS is back the object reads");
  }

  private static int status(Executable call) {
    return assertThrows(S3Exception.class, call).statusCode();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static byte[] plaintext(String name, int size) {
    return DiskScan.uniqueText(name, size);
  }

  /** Whether any file under the cluster's directory holds {@code bytes[from, from + length)}. */
  private static boolean onDisk(byte[] bytes, int from, int length) throws IOException {
    return DiskScan.anyFileHolds(dir.resolve("cluster"), Arrays.copyOfRange(bytes, from, from + length));
  }
}
