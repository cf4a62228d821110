package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.KeyInputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.security.PemFiles;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyInfo;
import org.tropos.tools.Tropos;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequest;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * SSE-S3 in a secure cluster, through a real S3 client: objects asked to be encrypted, and those written to a
 * bucket whose default encryption says so, read back bit-exact (whole, in ranges across segment boundaries, and
 * on the native path, multipart ones across their parts), with their plaintext sizes everywhere; no file of the
 * cluster (block files, Raft logs, the OM's database) holds their plaintext, while an object left in the clear is
 * found by the same scan. SSE-C over HTTPS; copies into and out of either; a bucket created encrypted with
 * {@code tropos sh}. What is not implemented (SSE-KMS) is refused with nothing stored.
 */
class EncryptionAtRestIT {
  private static final int SMALL = 200 * 1024;
  private static final int LARGE = 3 * 1024 * 1024 + 12_345;

  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static TroposClient admin;
  private static S3Client s3;
  private static String secret;

  @BeforeAll
  static void start() throws Exception {
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true"));
    mini.awaitOpenPipelines(1);
    admin = TroposClient.create(mini.clientConfig());
    secret = admin.getS3Secret("erin", true).getSecret();
    s3 = S3Cluster.clientOf(URI.create(mini.cluster().s3Endpoint()), "erin", secret);
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {s3, admin, mini}) {
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
  void anObjectAskedToBeEncryptedReadsBackWholeAndInRangesAndIsNowhereOnDiskInTheClear() throws Exception {
    s3.createBucket(b -> b.bucket("asked"));
    byte[] small = plaintext("small", SMALL);
    byte[] large = plaintext("large", LARGE);
    byte[] clear = plaintext("clear", SMALL);
    for (Map.Entry<String, byte[]> object : Map.of("small", small, "large", large).entrySet()) {
      PutObjectResponse put = s3.putObject(p -> p.bucket("asked").key(object.getKey())
          .serverSideEncryption(ServerSideEncryption.AES256), RequestBody.fromBytes(object.getValue()));
      assertEquals(ServerSideEncryption.AES256, put.serverSideEncryption());
    }
    s3.putObject(p -> p.bucket("asked").key("clear"), RequestBody.fromBytes(clear));

    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket("asked").key("large"));
    assertArrayEquals(large, got.asByteArray());
    assertEquals(ServerSideEncryption.AES256, got.response().serverSideEncryption());
    HeadObjectResponse head = s3.headObject(h -> h.bucket("asked").key("small"));
    assertEquals(SMALL, head.contentLength());
    assertEquals(ServerSideEncryption.AES256, head.serverSideEncryption());
    assertNull(s3.headObject(h -> h.bucket("asked").key("clear")).serverSideEncryption());
    assertEquals(Map.of("clear", (long) SMALL, "large", (long) LARGE, "small", (long) SMALL), sizesListed("asked"));
    // Ranges within one segment, across segment boundaries, and the last bytes.
    for (long[] range : new long[][] {{10, 20}, {65_530, 131_080}, {LARGE - 100, LARGE - 1}, {0, LARGE - 1}}) {
      byte[] part = s3.getObjectAsBytes(g -> g.bucket("asked").key("large").range("bytes=" + range[0] + "-"
          + range[1])).asByteArray();
      assertArrayEquals(Arrays.copyOfRange(large, (int) range[0], (int) range[1] + 1), part, "bytes " + range[0]
          + "-" + range[1]);
    }

    // The native path reads the same plaintext, and sees how the key is stored.
    KeyInfo key = admin.getKey("s3v", "asked", "small");
    assertEquals(EncryptionKind.SSE_S3, key.getEncryption().getKind());
    assertEquals(SMALL, key.getSize());
    try (KeyInputStream in = admin.readKey("s3v", "asked", "small")) {
      assertArrayEquals(small, in.readAllBytes());
      in.seek(70_000);
      assertArrayEquals(Arrays.copyOfRange(small, 70_000, 70_100), in.readNBytes(100));
    }

    assertFalse(onDisk(small) || onDisk(large), "an encrypted object's plaintext is on a disk of the cluster");
    assertTrue(onDisk(clear), "the scan finds an object left in the clear");
  }

  @Test
  void aBucketsDefaultEncryptionAppliesToObjectsWrittenWithoutAskingAndToTheirCopies() throws Exception {
    s3.createBucket(b -> b.bucket("vault"));
    assertEquals("ServerSideEncryptionConfigurationNotFoundError", assertThrows(S3Exception.class,
        () -> s3.getBucketEncryption(g -> g.bucket("vault"))).awsErrorDetails().errorCode());
    s3.putBucketEncryption(p -> p.bucket("vault").serverSideEncryptionConfiguration(c -> c.rules(r -> r
        .applyServerSideEncryptionByDefault(d -> d.sseAlgorithm(ServerSideEncryption.AES256)))));
    assertEquals(ServerSideEncryption.AES256, s3.getBucketEncryption(g -> g.bucket("vault"))
        .serverSideEncryptionConfiguration().rules().get(0).applyServerSideEncryptionByDefault().sseAlgorithm());

    byte[] small = plaintext("vault-small", SMALL);
    byte[] large = plaintext("vault-large", LARGE);
    assertEquals(ServerSideEncryption.AES256, s3.putObject(p -> p.bucket("vault").key("small"),
        RequestBody.fromBytes(small)).serverSideEncryption());
    assertEquals(ServerSideEncryption.AES256, s3.putObject(p -> p.bucket("vault").key("large"),
        RequestBody.fromBytes(large)).serverSideEncryption());
    s3.copyObject(c -> c.sourceBucket("vault").sourceKey("large").destinationBucket("vault").destinationKey("copy"));
    assertArrayEquals(large, s3.getObjectAsBytes(g -> g.bucket("vault").key("copy")).asByteArray());
    assertArrayEquals(small, s3.getObjectAsBytes(g -> g.bucket("vault").key("small")).asByteArray());
    assertFalse(onDisk(small) || onDisk(large), "a default-encrypted object's plaintext is on a disk");

    // A copy into another encryption is written anew: in the clear into the bucket's encryption, and back out.
    s3.createBucket(b -> b.bucket("plain"));
    s3.putObject(p -> p.bucket("plain").key("a"), RequestBody.fromString("in the clear"));
    assertEquals(ServerSideEncryption.AES256, s3.copyObject(c -> c.sourceBucket("plain").sourceKey("a")
        .destinationBucket("vault").destinationKey("from-plain")).serverSideEncryption());
    assertEquals("in the clear", s3.getObjectAsBytes(g -> g.bucket("vault").key("from-plain")).asUtf8String());
    CopyObjectResponse out = s3.copyObject(c -> c.sourceBucket("vault").sourceKey("small")
        .destinationBucket("plain").destinationKey("from-vault"));
    assertNull(out.serverSideEncryption());
    assertEquals("\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(small)) + "\"",
        out.copyObjectResult().eTag(), "a copy written anew has its content's MD5");
    assertArrayEquals(small, s3.getObjectAsBytes(g -> g.bucket("plain").key("from-vault")).asByteArray());
    assertNull(s3.headObject(h -> h.bucket("plain").key("from-vault")).serverSideEncryption());

    s3.deleteBucketEncryption(d -> d.bucket("vault"));
    assertNull(s3.putObject(p -> p.bucket("vault").key("after"), RequestBody.fromString("after"))
        .serverSideEncryption());
    assertEquals(ServerSideEncryption.AES256, s3.headObject(h -> h.bucket("vault").key("small"))
        .serverSideEncryption(), "objects keep how they were written");
  }

  @Test
  void anEncryptedMultipartUploadReadsBackAcrossItsPartsAndIsNowhereOnDiskInTheClear() throws Exception {
    s3.createBucket(b -> b.bucket("parts"));
    int partSize = 5 * 1024 * 1024;
    byte[] whole = plaintext("multipart", 2 * partSize + 70_001);
    CreateMultipartUploadResponse created = s3.createMultipartUpload(c -> c.bucket("parts").key("big")
        .serverSideEncryption(ServerSideEncryption.AES256));
    assertEquals(ServerSideEncryption.AES256, created.serverSideEncryption());
    String uploadId = created.uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    for (int number = 1; number <= 3; number++) {
      int from = (number - 1) * partSize;
      byte[] part = Arrays.copyOfRange(whole, from, Math.min(whole.length, from + partSize));
      int n = number;
      UploadPartResponse uploaded = s3.uploadPart(u -> u.bucket("parts").key("big").uploadId(uploadId)
          .partNumber(n), RequestBody.fromBytes(part));
      assertEquals(ServerSideEncryption.AES256, uploaded.serverSideEncryption());
      parts.add(CompletedPart.builder().partNumber(number).eTag(uploaded.eTag()).build());
    }
    assertEquals(List.of((long) partSize, (long) partSize, 70_001L), s3.listParts(l -> l.bucket("parts").key("big")
        .uploadId(uploadId)).parts().stream().map(Part::size).toList());
    // A part copied into an encrypted upload is written anew under the upload's key: here the last part again,
    // from a range of another encrypted object, across its segments.
    byte[] around = plaintext("around", 200_000);
    System.arraycopy(whole, 2 * partSize, around, 1_000, 70_001);
    s3.putObject(p -> p.bucket("parts").key("around").serverSideEncryption(ServerSideEncryption.AES256),
        RequestBody.fromBytes(around));
    UploadPartCopyResponse copied = s3.uploadPartCopy(c -> c.sourceBucket("parts").sourceKey("around")
        .copySourceRange("bytes=1000-71000").destinationBucket("parts").destinationKey("big").uploadId(uploadId)
        .partNumber(3));
    assertEquals(ServerSideEncryption.AES256, copied.serverSideEncryption());
    parts.set(2, CompletedPart.builder().partNumber(3).eTag(copied.copyPartResult().eTag()).build());
    assertEquals(ServerSideEncryption.AES256, s3.completeMultipartUpload(c -> c.bucket("parts").key("big")
        .uploadId(uploadId).multipartUpload(m -> m.parts(parts))).serverSideEncryption());

    assertArrayEquals(whole, s3.getObjectAsBytes(g -> g.bucket("parts").key("big")).asByteArray());
    assertEquals(whole.length, s3.headObject(h -> h.bucket("parts").key("big")).contentLength());
    for (long[] range : new long[][] {{partSize - 10, partSize + 10}, {partSize - 1, 2L * partSize + 5},
        {whole.length - 3, whole.length - 1}}) {
      assertArrayEquals(Arrays.copyOfRange(whole, (int) range[0], (int) range[1] + 1), s3.getObjectAsBytes(g -> g
          .bucket("parts").key("big").range("bytes=" + range[0] + "-" + range[1])).asByteArray(), "bytes "
          + range[0] + "-" + range[1]);
    }
    assertArrayEquals(Arrays.copyOfRange(whole, partSize, 2 * partSize), s3.getObjectAsBytes(g -> g.bucket("parts")
        .key("big").partNumber(2)).asByteArray());
    try (KeyInputStream in = admin.readKey("s3v", "parts", "big")) {
      in.seek(partSize - 4);
      assertArrayEquals(Arrays.copyOfRange(whole, partSize - 4, partSize + 4), in.readNBytes(8), "native path");
    }
    assertFalse(onDisk(whole), "a multipart object's plaintext is on a disk of the cluster");
  }

  @Test
  void anObjectEncryptedWithACustomersKeyReadsOnlyWithThatKeyOverHttps() throws Exception {
    s3.createBucket(b -> b.bucket("customer"));
    String key = Base64.getEncoder().encodeToString(plaintext("customer-key", 32));
    String other = Base64.getEncoder().encodeToString(plaintext("another-key!", 32));
    byte[] data = plaintext("sse-c", SMALL);
    try (S3Client https = httpsClient()) {
      https.putObject(p -> customer(p.bucket("customer").key("c"), key), RequestBody.fromBytes(data));
      assertEquals(400, status(() -> https.getObject(g -> g.bucket("customer").key("c"))), "without the key");
      assertEquals(400, status(() -> https.getObject(g -> customer(g.bucket("customer").key("c"), other))));
      assertEquals(400, status(() -> https.headObject(h -> h.bucket("customer").key("c"))));
      ResponseBytes<GetObjectResponse> got = https.getObjectAsBytes(g -> customer(g.bucket("customer").key("c"),
          key));
      assertArrayEquals(data, got.asByteArray());
      assertEquals("AES256", got.response().sseCustomerAlgorithm());
      assertEquals(md5(key), got.response().sseCustomerKeyMD5());
      assertEquals(SMALL, https.headObject(h -> customer(h.bucket("customer").key("c"), key)).contentLength());
      assertArrayEquals(Arrays.copyOfRange(data, 65_000, 140_000), https.getObjectAsBytes(g -> customer(g
          .bucket("customer").key("c"), key).range("bytes=65000-139999")).asByteArray());

      int partSize = 5 * 1024 * 1024;
      byte[] whole = plaintext("sse-c-multipart", partSize + 1000);
      String uploadId = https.createMultipartUpload(c -> customer(c.bucket("customer").key("m"), key)).uploadId();
      assertEquals(400, status(() -> https.uploadPart(u -> u.bucket("customer").key("m").uploadId(uploadId)
          .partNumber(1), RequestBody.fromBytes(new byte[10]))), "a part without the upload's key");
      List<CompletedPart> parts = new ArrayList<>();
      for (int number = 1; number <= 2; number++) {
        byte[] part = Arrays.copyOfRange(whole, (number - 1) * partSize, Math.min(whole.length, number * partSize));
        int n = number;
        parts.add(CompletedPart.builder().partNumber(number).eTag(https.uploadPart(u -> customer(u.bucket("customer")
            .key("m").uploadId(uploadId).partNumber(n), key), RequestBody.fromBytes(part)).eTag()).build());
      }
      assertEquals(400, status(() -> https.completeMultipartUpload(c -> c.bucket("customer").key("m")
          .uploadId(uploadId).multipartUpload(m -> m.parts(parts)))), "completed without the upload's key");
      assertEquals(400, status(() -> https.completeMultipartUpload(c -> customer(c.bucket("customer").key("m")
          .uploadId(uploadId).multipartUpload(m -> m.parts(parts)), other))), "completed with another key");
      https.completeMultipartUpload(c -> customer(c.bucket("customer").key("m").uploadId(uploadId)
          .multipartUpload(m -> m.parts(parts)), key));
      assertArrayEquals(whole, https.getObjectAsBytes(g -> customer(g.bucket("customer").key("m"), key))
          .asByteArray());
      // A copy reads its source with the source's key (400 without it) and is written as it asks: under another
      // customer's key, or SSE-S3.
      assertEquals(400, status(() -> https.copyObject(c -> c.sourceBucket("customer").sourceKey("c")
          .destinationBucket("customer").destinationKey("copy"))), "a copy without the source's key");
      https.copyObject(c -> copySourceKey(customer(c.sourceBucket("customer").sourceKey("c")
          .destinationBucket("customer").destinationKey("copy"), other), key));
      assertArrayEquals(data, https.getObjectAsBytes(g -> customer(g.bucket("customer").key("copy"), other))
          .asByteArray());
      assertEquals(400, status(() -> https.getObject(g -> customer(g.bucket("customer").key("copy"), key))));
      https.copyObject(c -> copySourceKey(c.sourceBucket("customer").sourceKey("m").destinationBucket("customer")
          .destinationKey("m-s3").serverSideEncryption(ServerSideEncryption.AES256), key));
      assertArrayEquals(whole, https.getObjectAsBytes(g -> g.bucket("customer").key("m-s3")).asByteArray());
      assertFalse(onDisk(data) || onDisk(whole), "an SSE-C object's plaintext is on a disk of the cluster");
    }
    // A customer's key is refused over plain HTTP, where it would cross the network in the clear.
    assertEquals(400, status(() -> s3.putObject(p -> customer(p.bucket("customer").key("plain-http"), key),
        RequestBody.fromString("x"))));
    assertThrows(NoSuchKeyException.class, () -> s3.headObject(h -> h.bucket("customer").key("plain-http")));
  }

  @Test
  void aBucketCreatedEncryptedOnTheNativePathEncryptsTheKeysWrittenToItUntilUpdated() throws Exception {
    Path conf = mini.clientConfDir(dir.resolve("sh-conf"));
    Path local = dir.resolve("native.bin");
    byte[] secretData = plaintext("native-encrypted", SMALL);
    Files.write(local, secretData);
    assertEquals(0, sh(conf, "volume", "create", "/tde"));
    assertEquals(1, sh(conf, "bucket", "create", "/tde/refused", "--encryption", "SSE_C"), "no customer's key");
    assertThrows(Exception.class, () -> admin.getBucket("tde", "refused"));
    assertEquals(0, sh(conf, "bucket", "create", "/tde/vault", "--encryption", "AES256"));
    assertEquals(0, sh(conf, "key", "put", "/tde/vault/secret", local.toString()));
    Path back = dir.resolve("native-back.bin");
    assertEquals(0, sh(conf, "key", "get", "/tde/vault/secret", back.toString()));
    assertArrayEquals(secretData, Files.readAllBytes(back));
    assertFalse(onDisk(secretData), "a key of an encrypted bucket is on a disk in the clear");

    assertEquals(0, sh(conf, "bucket", "update", "/tde/vault", "--encryption", "NONE"));
    byte[] clear = plaintext("native-clear", SMALL);
    Files.write(local, clear);
    assertEquals(0, sh(conf, "key", "put", "/tde/vault/clear", local.toString()));
    assertEquals(EncryptionKind.ENCRYPTION_NONE, admin.lookupKey("tde", "vault", "clear").getKey().getEncryption()
        .getKind());
    assertEquals(EncryptionKind.SSE_S3, admin.lookupKey("tde", "vault", "secret").getKey().getEncryption()
        .getKind(), "keys keep how they were written");
  }

  private static int sh(Path conf, String... args) {
    String[] all = Stream.concat(Stream.of("sh"), Stream.concat(Stream.of(args), Stream.of("--conf",
        conf.toString()))).toArray(String[]::new);
    return Tropos.run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), all);
  }

  @Test
  void encryptionThatIsNotImplementedIsRefusedAndNothingIsStored() {
    s3.createBucket(b -> b.bucket("refused"));
    assertEquals(501, assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("refused").key("kms")
        .serverSideEncryption(ServerSideEncryption.AWS_KMS), RequestBody.fromString("x"))).statusCode());
    assertEquals(400, assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("refused").key("odd")
        .serverSideEncryption("ROT13"), RequestBody.fromString("x"))).statusCode());
    assertEquals(Map.of(), sizesListed("refused"));
  }

  private static int status(Executable call) {
    return assertThrows(S3Exception.class, call).statusCode();
  }

  /** {@code request} carrying the SSE-C key {@code key} (base64) in the headers S3 names. */
  private static <B extends AwsRequest.Builder> B customer(B request, String key) {
    request.overrideConfiguration(o -> o.putHeader("x-amz-server-side-encryption-customer-algorithm", "AES256")
        .putHeader("x-amz-server-side-encryption-customer-key", key)
        .putHeader("x-amz-server-side-encryption-customer-key-MD5", md5(key)));
    return request;
  }

  private static CopyObjectRequest.Builder copySourceKey(CopyObjectRequest.Builder request, String key) {
    return request.copySourceSSECustomerAlgorithm("AES256").copySourceSSECustomerKey(key)
        .copySourceSSECustomerKeyMD5(md5(key));
  }

  private static String md5(String base64Key) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(Base64.getDecoder()
          .decode(base64Key)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** A client of the gateway's HTTPS port, trusting the cluster's CA. */
  private static S3Client httpsClient() throws Exception {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    trusted.setCertificateEntry("cluster", PemFiles.certificate(Files.readString(dir.resolve(
        "cluster/scm/scm-security/ca.crt"))));
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    return S3Client.builder().endpointOverride(URI.create(mini.cluster().s3HttpsEndpoint().orElseThrow()))
        .region(Region.US_EAST_1).httpClientBuilder(ApacheHttpClient.builder().tlsTrustManagersProvider(
            trust::getTrustManagers))
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("erin", secret)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private static Map<String, Long> sizesListed(String bucket) {
    return s3.listObjectsV2(l -> l.bucket(bucket)).contents().stream().collect(Collectors.toMap(S3Object::key,
        S3Object::size));
  }

  private static byte[] plaintext(String name, int size) {
    return DiskScan.uniqueText(name, size);
  }

  /** Whether any file under the cluster's directory holds a 64-byte run of {@code plaintext} (from its middle). */
  private static boolean onDisk(byte[] plaintext) throws IOException {
    return DiskScan.anyFileHolds(dir.resolve("cluster"), Arrays.copyOfRange(plaintext, plaintext.length / 2,
        plaintext.length / 2 + 64));
  }
}
