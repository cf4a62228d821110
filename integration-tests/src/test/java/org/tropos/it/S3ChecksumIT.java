package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.proto.om.S3Secret;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.crt.checksums.CRC64NVME;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * S3's flexible checksums through the gateway, with the AWS SDK for Java v2 (its default checksum settings, and
 * each algorithm), its signer's aws-chunked trailers, and boto3: a wrong checksum of any algorithm, in a header or a
 * trailer, of an object or a part, is refused and stores nothing; what is stored keeps its checksum, which GET, HEAD,
 * GetObjectAttributes and ListParts give back, and which the SDK verifies on every GET.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class S3ChecksumIT {
  private static final int MB = 1 << 20;
  private static final String WRONG_CRC32 = "AAAAAA==";

  private S3Cluster cluster;
  private S3Client s3;
  private S3Secret alice;
  private Path dir;

  @BeforeAll
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    cluster = new S3Cluster(dir.resolve("cluster"));
    alice = cluster.secret("alice");
    s3 = cluster.client("alice");
    s3.createBucket(b -> b.bucket("sums"));
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

  /** The SDK's defaults: it sends a CRC32 with every upload, and with checksum mode on verifies every GET. */
  @Test
  void theSdkDefaultChecksumIsKeptAndVerifiedOnEveryGet() {
    byte[] data = random(3 * MB + 7, 1);
    s3.putObject(p -> p.bucket("sums").key("default.bin"), RequestBody.fromBytes(data));
    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket("sums").key("default.bin")
        .checksumMode(ChecksumMode.ENABLED));
    assertArrayEquals(data, got.asByteArray());
    assertEquals(base64(crc(new CRC32(), data), 4), got.response().checksumCRC32());
    assertEquals(ChecksumType.FULL_OBJECT, got.response().checksumType());
    HeadObjectResponse head = s3.headObject(h -> h.bucket("sums").key("default.bin")
        .checksumMode(ChecksumMode.ENABLED));
    assertEquals(got.response().checksumCRC32(), head.checksumCRC32());
    assertEquals(null, s3.headObject(h -> h.bucket("sums").key("default.bin")).checksumCRC32(),
        "only with checksum mode");
    assertEquals(got.response().checksumCRC32(), s3.getObjectAttributes(a -> a.bucket("sums").key("default.bin")
        .objectAttributes(ObjectAttributes.CHECKSUM)).checksum().checksumCRC32());
  }

  /**
   * A copy keeps its source's checksum without reading it; asked for another algorithm, the gateway reads the source
   * once and the copy keeps that checksum, while the source keeps its own.
   */
  @Test
  void aCopyKeepsTheChecksumOrComputesTheOneAskedFor() {
    byte[] data = random(2 * MB + 5, 7);
    s3.putObject(p -> p.bucket("sums").key("copy-src"), RequestBody.fromBytes(data));
    assertEquals(expected(ChecksumAlgorithm.CRC32, data), s3.copyObject(c -> c.sourceBucket("sums")
        .sourceKey("copy-src").destinationBucket("sums").destinationKey("copy-same")).copyObjectResult()
        .checksumCRC32());
    for (ChecksumAlgorithm algorithm : List.of(ChecksumAlgorithm.SHA256, ChecksumAlgorithm.CRC64_NVME)) {
      String key = "copy-" + algorithm;
      assertEquals(expected(algorithm, data), checksumOf(s3.copyObject(c -> c.sourceBucket("sums")
          .sourceKey("copy-src").destinationBucket("sums").destinationKey(key).checksumAlgorithm(algorithm))
          .copyObjectResult(), algorithm), algorithm.toString());
      ResponseBytes<GetObjectResponse> copy = s3.getObjectAsBytes(g -> g.bucket("sums").key(key)
          .checksumMode(ChecksumMode.ENABLED));
      assertArrayEquals(data, copy.asByteArray());
      assertEquals(expected(algorithm, data), checksumOf(copy.response(), algorithm));
    }
    assertEquals(expected(ChecksumAlgorithm.CRC32, data), s3.headObject(h -> h.bucket("sums").key("copy-src")
        .checksumMode(ChecksumMode.ENABLED)).checksumCRC32(), "the source keeps its own");
  }

  /** Each algorithm the SDK offers is computed by the gateway as the body streams and given back as sent. */
  @Test
  void everyAlgorithmIsKeptAsTheSdkComputedIt() {
    byte[] data = random(MB + 3, 2);
    for (ChecksumAlgorithm algorithm : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C,
        ChecksumAlgorithm.CRC64_NVME, ChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA256)) {
      String key = "each-" + algorithm;
      s3.putObject(p -> p.bucket("sums").key(key).checksumAlgorithm(algorithm), RequestBody.fromBytes(data));
      GetObjectResponse got = s3.getObjectAsBytes(g -> g.bucket("sums").key(key)
          .checksumMode(ChecksumMode.ENABLED)).response();
      assertEquals(expected(algorithm, data), checksumOf(got, algorithm), algorithm.toString());
    }
  }

  /** A wrong checksum in a header, of every algorithm, on PutObject and UploadPart: BadDigest, nothing stored. */
  @Test
  void aWrongChecksumHeaderIsRefusedAndNothingIsStored() {
    byte[] data = random(64 * 1024, 3);
    String upload = s3.createMultipartUpload(c -> c.bucket("sums").key("parts-refused")).uploadId();
    for (ChecksumAlgorithm algorithm : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C,
        ChecksumAlgorithm.CRC64_NVME, ChecksumAlgorithm.SHA1, ChecksumAlgorithm.SHA256)) {
      String wrong = wrong(algorithm, data);
      String key = "refused-" + algorithm;
      S3Exception put = assertThrows(S3Exception.class, () -> s3.putObject(withValue(PutObjectRequest.builder()
          .bucket("sums").key(key), algorithm, wrong).build(), RequestBody.fromBytes(data)));
      assertEquals(400, put.statusCode());
      assertEquals("BadDigest", put.awsErrorDetails().errorCode());
      assertEquals(404, assertThrows(S3Exception.class, () -> s3.headObject(h -> h.bucket("sums").key(key)))
          .statusCode());
      S3Exception part = assertThrows(S3Exception.class, () -> s3.uploadPart(withValue(UploadPartRequest.builder()
          .bucket("sums").key("parts-refused").uploadId(upload).partNumber(1), algorithm, wrong).build(),
          RequestBody.fromBytes(data)));
      assertEquals("BadDigest", part.awsErrorDetails().errorCode());
    }
    assertTrue(s3.listParts(l -> l.bucket("sums").key("parts-refused").uploadId(upload)).parts().isEmpty());
  }

  /**
   * A trailing checksum (aws-chunked, as the SDK streams an upload) that does not match the bytes, of every
   * algorithm, on PutObject and UploadPart: BadDigest, nothing stored; the same body with its trailer intact is.
   */
  @Test
  void aWrongTrailingChecksumIsRefusedAndNothingIsStored() {
    byte[] data = random(200 * 1024, 4);
    String upload = s3.createMultipartUpload(c -> c.bucket("sums").key("trailed-part")).uploadId();
    try (S3RawClient raw = new S3RawClient(cluster.endpoint(), "alice", alice.getSecret())) {
      for (software.amazon.awssdk.checksums.spi.ChecksumAlgorithm algorithm : List.of(DefaultChecksumAlgorithm.CRC32,
          DefaultChecksumAlgorithm.CRC32C, DefaultChecksumAlgorithm.CRC64NVME, DefaultChecksumAlgorithm.SHA1,
          DefaultChecksumAlgorithm.SHA256)) {
        String key = "trailed-" + algorithm.algorithmId();
        String trailer = "x-amz-checksum-" + algorithm.algorithmId().toLowerCase(java.util.Locale.ROOT) + ":";
        BiFunction<String, Integer, S3RawClient.Response> corrupted = (path, n) -> raw.sendWithTrailer("PUT", path,
            data, algorithm, body -> flipFirstChar(body, trailer));
        S3RawClient.Response put = corrupted.apply("/sums/" + key, 0);
        assertEquals(400, put.status(), put.body());
        assertEquals("BadDigest", put.errorCode(), put.body());
        assertEquals(404, raw.send("HEAD", "/sums/" + key).status());
        S3RawClient.Response part = corrupted.apply("/sums/trailed-part?partNumber=1&uploadId=" + upload, 0);
        assertEquals("BadDigest", part.errorCode(), part.body());

        S3RawClient.Response intact = raw.sendWithTrailer("PUT", "/sums/" + key, data, algorithm, body -> body);
        assertEquals(200, intact.status(), intact.body());
        assertEquals(1, s3.listObjectsV2(l -> l.bucket("sums").prefix(key)).keyCount());
      }
    }
    assertTrue(s3.listParts(l -> l.bucket("sums").key("trailed-part").uploadId(upload)).parts().isEmpty());
  }

  /**
   * Multipart checksums as S3 makes them: CRC64NVME (FULL_OBJECT: the CRC of every byte, combined from the parts'),
   * CRC32C asked FULL_OBJECT, CRC32 and SHA256 (COMPOSITE: the checksum of the parts' checksums, with the part
   * count). ListParts shows each part's; the SDK verifies the full-object ones on GET.
   */
  @Test
  void multipartChecksumsAreJoinedFromTheParts() {
    byte[] data = random(11 * MB + 5, 5);
    byte[][] parts = {java.util.Arrays.copyOfRange(data, 0, 5 * MB),
        java.util.Arrays.copyOfRange(data, 5 * MB, 10 * MB), java.util.Arrays.copyOfRange(data, 10 * MB, data.length)};
    record Case(ChecksumAlgorithm algorithm, ChecksumType type) {
    }
    for (Case c : List.of(new Case(ChecksumAlgorithm.CRC64_NVME, null), new Case(ChecksumAlgorithm.CRC32_C,
        ChecksumType.FULL_OBJECT), new Case(ChecksumAlgorithm.CRC32, null), new Case(ChecksumAlgorithm.SHA256, null))) {
      String key = "joined-" + c.algorithm();
      var created = s3.createMultipartUpload(m -> m.bucket("sums").key(key).checksumAlgorithm(c.algorithm())
          .checksumType(c.type()));
      assertEquals(c.algorithm(), created.checksumAlgorithm());
      List<CompletedPart> completed = new ArrayList<>();
      for (int i = 0; i < parts.length; i++) {
        int number = i + 1;
        UploadPartResponse up = s3.uploadPart(u -> u.bucket("sums").key(key).uploadId(created.uploadId())
            .partNumber(number).checksumAlgorithm(c.algorithm()), RequestBody.fromBytes(parts[i]));
        assertEquals(expected(c.algorithm(), parts[i]), checksumOf(up, c.algorithm()));
        completed.add(withPartChecksum(CompletedPart.builder().partNumber(number).eTag(up.eTag()), c.algorithm(),
            checksumOf(up, c.algorithm())).build());
      }
      assertEquals(expected(c.algorithm(), parts[1]), checksumOf(s3.listParts(l -> l.bucket("sums").key(key)
          .uploadId(created.uploadId())).parts().get(1), c.algorithm()));
      s3.completeMultipartUpload(m -> m.bucket("sums").key(key).uploadId(created.uploadId())
          .multipartUpload(u -> u.parts(completed)));
      ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket("sums").key(key)
          .checksumMode(ChecksumMode.ENABLED));
      assertArrayEquals(data, got.asByteArray());
      GetObjectResponse second = s3.getObject(g -> g.bucket("sums").key(key).partNumber(2)
          .checksumMode(ChecksumMode.ENABLED), software.amazon.awssdk.core.sync.ResponseTransformer.toBytes())
          .response();
      assertEquals(expected(c.algorithm(), parts[1]), checksumOf(second, c.algorithm()), "part 2's own checksum");
      String joined = checksumOf(got.response(), c.algorithm());
      if (got.response().checksumType() == ChecksumType.FULL_OBJECT) {
        assertEquals(expected(c.algorithm(), data), joined, key);
      } else {
        assertTrue(joined.endsWith("-3"), joined);
      }
      assertEquals(c.algorithm() == ChecksumAlgorithm.CRC64_NVME || c.type() == ChecksumType.FULL_OBJECT
          ? ChecksumType.FULL_OBJECT : ChecksumType.COMPOSITE, got.response().checksumType());
    }
  }

  /**
   * A part copied by UploadPartCopy into an upload created with a checksum algorithm gets that checksum of its range
   * (the range is read once for it), so the object made with it has its full-object checksum.
   */
  @Test
  void aCopiedPartHasTheChecksumItsUploadAskedFor() {
    byte[] data = random(7 * MB + 9, 8);
    byte[] first = java.util.Arrays.copyOfRange(data, 0, 5 * MB);
    byte[] copied = java.util.Arrays.copyOfRange(data, 5 * MB, data.length);
    byte[] source = new byte[copied.length + 100];
    System.arraycopy(copied, 0, source, 100, copied.length);
    s3.putObject(p -> p.bucket("sums").key("part-source"), RequestBody.fromBytes(source));
    String key = "with-copied-part";
    var created = s3.createMultipartUpload(m -> m.bucket("sums").key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32_C)
        .checksumType(ChecksumType.FULL_OBJECT));
    UploadPartResponse up = s3.uploadPart(u -> u.bucket("sums").key(key).uploadId(created.uploadId()).partNumber(1)
        .checksumAlgorithm(ChecksumAlgorithm.CRC32_C), RequestBody.fromBytes(first));
    var copy = s3.uploadPartCopy(c -> c.sourceBucket("sums").sourceKey("part-source").destinationBucket("sums")
        .destinationKey(key).uploadId(created.uploadId()).partNumber(2)
        .copySourceRange("bytes=100-" + (source.length - 1))).copyPartResult();
    assertEquals(expected(ChecksumAlgorithm.CRC32_C, copied), copy.checksumCRC32C(), "the copied range's own");
    s3.completeMultipartUpload(m -> m.bucket("sums").key(key).uploadId(created.uploadId()).multipartUpload(u -> u
        .parts(CompletedPart.builder().partNumber(1).eTag(up.eTag()).build(),
            CompletedPart.builder().partNumber(2).eTag(copy.eTag()).build())));
    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket("sums").key(key)
        .checksumMode(ChecksumMode.ENABLED));
    assertArrayEquals(data, got.asByteArray());
    assertEquals(expected(ChecksumAlgorithm.CRC32_C, data), got.response().checksumCRC32C());
  }

  /** Completing with a part checksum that is not the part's (InvalidPart) or a wrong whole one (BadDigest). */
  @Test
  void aCompletionNamingWrongChecksumsIsRefused() {
    byte[] data = random(5 * MB, 6);
    String key = "complete-refused";
    String upload = s3.createMultipartUpload(m -> m.bucket("sums").key(key)
        .checksumAlgorithm(ChecksumAlgorithm.CRC32)).uploadId();
    UploadPartResponse up = s3.uploadPart(u -> u.bucket("sums").key(key).uploadId(upload).partNumber(1)
        .checksumAlgorithm(ChecksumAlgorithm.CRC32), RequestBody.fromBytes(data));
    S3Exception wrongPart = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(m -> m.bucket("sums")
        .key(key).uploadId(upload).multipartUpload(u -> u.parts(CompletedPart.builder().partNumber(1)
            .eTag(up.eTag()).checksumCRC32(WRONG_CRC32).build()))));
    assertEquals("InvalidPart", wrongPart.awsErrorDetails().errorCode());
    S3Exception wrongWhole = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(m -> m.bucket("sums")
        .key(key).uploadId(upload).checksumCRC32(WRONG_CRC32).multipartUpload(u -> u.parts(CompletedPart.builder()
            .partNumber(1).eTag(up.eTag()).build()))));
    assertEquals("BadDigest", wrongWhole.awsErrorDetails().errorCode());
    assertEquals(404, assertThrows(S3Exception.class, () -> s3.headObject(h -> h.bucket("sums").key(key)))
        .statusCode());
  }

  /**
   * boto3 as a data team runs it: a wrong ChecksumCRC32 refused; its default upload's checksum given back and
   * verified on GET; a trailer corrupted on the way (its CRC32 computed wrong) refused, nothing stored.
   */
  @Test
  void boto3WrongChecksumsAreRefusedAndItsDefaultsVerify() throws Exception {
    Assumptions.assumeTrue(new ProcessBuilder("python3", "-c", "import boto3").start().waitFor() == 0,
        "boto3 is not installed");
    String script = String.join("\n",
        "import boto3, botocore.httpchecksum as hc",
        "from botocore.exceptions import ClientError",
        "s3 = boto3.client('s3', endpoint_url='" + cluster.endpoint() + "', region_name='us-east-1',",
        "    aws_access_key_id='alice', aws_secret_access_key='" + alice.getSecret() + "')",
        "def code(call):",
        "    try:",
        "        call()",
        "        return 'stored'",
        "    except ClientError as e:",
        "        return e.response['Error']['Code']",
        "print('header', code(lambda: s3.put_object(Bucket='sums', Key='boto-header', Body=b'x' * 1000,",
        "    ChecksumCRC32='" + WRONG_CRC32 + "')))",
        "print('header-head', code(lambda: s3.head_object(Bucket='sums', Key='boto-header')))",
        "s3.put_object(Bucket='sums', Key='boto-default', Body=b'y' * 100000)",
        "got = s3.get_object(Bucket='sums', Key='boto-default', ChecksumMode='ENABLED')",
        "print('default', got['Body'].read() == b'y' * 100000, got.get('ChecksumCRC32') is not None)",
        "hc.Crc32Checksum.digest = lambda self: b'\\x00\\x00\\x00\\x00'",
        "print('trailer', code(lambda: s3.put_object(Bucket='sums', Key='boto-trailer', Body=b'z' * 1000)))",
        "print('trailer-head', code(lambda: s3.head_object(Bucket='sums', Key='boto-trailer')))");
    Process python = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
    String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(python.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, python.exitValue(), out);
    assertTrue(out.contains("header BadDigest"), out);
    assertTrue(out.contains("header-head 404"), out);
    assertTrue(out.contains("default True True"), out);
    assertTrue(out.contains("trailer BadDigest"), out);
    assertTrue(out.contains("trailer-head 404"), out);
  }

  private static String flipFirstChar(String body, String trailer) {
    int at = body.indexOf(trailer);
    assertNotEquals(-1, at, "the body carries " + trailer);
    int first = at + trailer.length();
    char replaced = body.charAt(first) == 'A' ? 'B' : 'A';
    return body.substring(0, first) + replaced + body.substring(first + 1);
  }

  private static PutObjectRequest.Builder withValue(PutObjectRequest.Builder put, ChecksumAlgorithm algorithm,
      String value) {
    return switch (algorithm) {
      case CRC32 -> put.checksumCRC32(value);
      case CRC32_C -> put.checksumCRC32C(value);
      case CRC64_NVME -> put.checksumCRC64NVME(value);
      case SHA1 -> put.checksumSHA1(value);
      default -> put.checksumSHA256(value);
    };
  }

  private static UploadPartRequest.Builder withValue(UploadPartRequest.Builder part, ChecksumAlgorithm algorithm,
      String value) {
    return switch (algorithm) {
      case CRC32 -> part.checksumCRC32(value);
      case CRC32_C -> part.checksumCRC32C(value);
      case CRC64_NVME -> part.checksumCRC64NVME(value);
      case SHA1 -> part.checksumSHA1(value);
      default -> part.checksumSHA256(value);
    };
  }

  private static CompletedPart.Builder withPartChecksum(CompletedPart.Builder part, ChecksumAlgorithm algorithm,
      String value) {
    return switch (algorithm) {
      case CRC32 -> part.checksumCRC32(value);
      case CRC32_C -> part.checksumCRC32C(value);
      case CRC64_NVME -> part.checksumCRC64NVME(value);
      case SHA1 -> part.checksumSHA1(value);
      default -> part.checksumSHA256(value);
    };
  }

  /** The checksum of {@code algorithm} that a response, a copy result or a listed part carries (ChecksumCRC32...). */
  private static String checksumOf(software.amazon.awssdk.core.SdkPojo carrier, ChecksumAlgorithm algorithm) {
    String field = "Checksum" + algorithm;
    return carrier.sdkFields().stream().filter(f -> f.memberName().equals(field)).findFirst()
        .map(f -> (String) f.getValueOrDefault(carrier)).orElse(null);
  }

  /** The checksum of {@code data}, computed here with the JDK and the AWS CRT, not by the gateway. */
  private static String expected(ChecksumAlgorithm algorithm, byte[] data) {
    try {
      return switch (algorithm) {
        case CRC32 -> base64(crc(new CRC32(), data), 4);
        case CRC32_C -> base64(crc(new CRC32C(), data), 4);
        case CRC64_NVME -> base64(crc(new CRC64NVME(), data), 8);
        case SHA1 -> Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-1")
            .digest(data));
        default -> Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-256")
            .digest(data));
      };
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A well-formed checksum of {@code algorithm} that is not {@code data}'s. */
  private static String wrong(ChecksumAlgorithm algorithm, byte[] data) {
    byte[] right = Base64.getDecoder().decode(expected(algorithm, data));
    right[0] ^= 1;
    return Base64.getEncoder().encodeToString(right);
  }

  private static long crc(Checksum checksum, byte[] data) {
    checksum.update(data, 0, data.length);
    return checksum.getValue();
  }

  private static String base64(long value, int bytes) {
    ByteBuffer b = ByteBuffer.allocate(bytes);
    if (bytes == 8) {
      b.putLong(value);
    } else {
      b.putInt((int) value);
    }
    return Base64.getEncoder().encodeToString(b.array());
  }

  private static byte[] random(int size, long seed) {
    byte[] data = new byte[size];
    new Random(seed).nextBytes(data);
    return data;
  }
}
