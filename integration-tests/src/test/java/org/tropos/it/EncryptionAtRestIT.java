package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.KeyInputStream;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.KeyInfo;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * SSE-S3 in a secure cluster, through a real S3 client: objects asked to be encrypted, and those written to a
 * bucket whose default encryption says so, read back bit-exact (whole, in ranges across segment boundaries, and
 * on the native path), with their plaintext sizes everywhere; no file of the cluster (block files, Raft logs, the
 * OM's database) holds their plaintext, while an object left in the clear is found by the same scan. What is not
 * implemented (SSE-KMS, SSE-C) is refused with nothing stored.
 */
class EncryptionAtRestIT {
  private static final int SMALL = 200 * 1024;
  private static final int LARGE = 3 * 1024 * 1024 + 12_345;

  @TempDir
  static Path dir;
  private static MiniCluster mini;
  private static TroposClient admin;
  private static S3Client s3;

  @BeforeAll
  static void start() throws Exception {
    mini = new MiniCluster(dir.resolve("cluster"), 3, 1, Map.of("ozone.security.enabled", "true"));
    mini.awaitOpenPipelines(1);
    admin = TroposClient.create(mini.clientConfig());
    String secret = admin.getS3Secret("erin", true).getSecret();
    s3 = S3Client.builder().endpointOverride(URI.create(mini.cluster().s3Endpoint())).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("erin", secret)))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(60)).retryStrategy(r -> r.maxAttempts(1)))
        .build();
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

    // An object written in the clear is not copied into the bucket's encryption by a metadata copy: refused.
    s3.createBucket(b -> b.bucket("plain"));
    s3.putObject(p -> p.bucket("plain").key("a"), RequestBody.fromString("in the clear"));
    assertEquals(501, assertThrows(S3Exception.class, () -> s3.copyObject(c -> c.sourceBucket("plain").sourceKey("a")
        .destinationBucket("vault").destinationKey("from-plain"))).statusCode());
    assertThrows(NoSuchKeyException.class, () -> s3.headObject(h -> h.bucket("vault").key("from-plain")));

    s3.deleteBucketEncryption(d -> d.bucket("vault"));
    assertNull(s3.putObject(p -> p.bucket("vault").key("after"), RequestBody.fromString("after"))
        .serverSideEncryption());
    assertEquals(ServerSideEncryption.AES256, s3.headObject(h -> h.bucket("vault").key("small"))
        .serverSideEncryption(), "objects keep how they were written");
  }

  @Test
  void encryptionThatIsNotImplementedIsRefusedAndNothingIsStored() {
    s3.createBucket(b -> b.bucket("refused"));
    assertEquals(501, assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("refused").key("kms")
        .serverSideEncryption(ServerSideEncryption.AWS_KMS), RequestBody.fromString("x"))).statusCode());
    assertEquals(501, assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("refused").key("ssec")
        .sseCustomerAlgorithm("AES256").sseCustomerKey("MzJieXRlc2xvbmdzZWNyZXRrZXltdXN0cHJvdmlkZWQ=")
        .sseCustomerKeyMD5("DWygnHRtgiJ77HCm+1rvHw=="), RequestBody.fromString("x"))).statusCode());
    assertEquals(400, assertThrows(S3Exception.class, () -> s3.putObject(p -> p.bucket("refused").key("odd")
        .serverSideEncryption("ROT13"), RequestBody.fromString("x"))).statusCode());
    assertEquals(Map.of(), sizesListed("refused"));
  }

  private static Map<String, Long> sizesListed(String bucket) {
    return s3.listObjectsV2(l -> l.bucket(bucket)).contents().stream().collect(Collectors.toMap(S3Object::key,
        S3Object::size));
  }

  /** Bytes no other object has: a name repeated with a counter, so any 64-byte window of them is unique. */
  private static byte[] plaintext(String name, int size) {
    StringBuilder text = new StringBuilder(size + 64);
    for (int i = 0; text.length() < size; i++) {
      text.append(name).append(':').append(i).append(';');
    }
    return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
  }

  /** Whether any file under the cluster's directory holds a 64-byte run of {@code plaintext} (from its middle). */
  private static boolean onDisk(byte[] plaintext) throws IOException {
    byte[] wanted = Arrays.copyOfRange(plaintext, plaintext.length / 2, plaintext.length / 2 + 64);
    try (Stream<Path> files = Files.walk(dir.resolve("cluster"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes;
        try {
          bytes = Files.readAllBytes(file);
        } catch (IOException e) {
          continue; // removed while the walk ran (a rolled log)
        }
        if (indexOf(bytes, wanted) >= 0) {
          return true;
        }
      }
    }
    return false;
  }

  private static int indexOf(byte[] bytes, byte[] wanted) {
    outer:
    for (int i = 0; i + wanted.length <= bytes.length; i++) {
      for (int j = 0; j < wanted.length; j++) {
        if (bytes[i + j] != wanted[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
