package org.tropos.s3.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tropos.common.security.S3Signatures;
import org.tropos.s3.error.S3IOException;

/** Checked against AWS's published example of a chunked upload (66,560 bytes of 'a' in 64 KB chunks). */
class AwsChunkedInputStreamTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final String SEED = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9";
  private static final String[] CHUNK_SIGNATURES = {
      "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
      "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
      "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9"};
  private static final int SIZE = 66_560;

  private static byte[] awsExampleBody(String[] signatures) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int[] sizes = {65_536, 1_024, 0};
    for (int i = 0; i < sizes.length; i++) {
      body.writeBytes((Integer.toHexString(sizes[i]) + ";chunk-signature=" + signatures[i] + "\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      byte[] data = new byte[sizes[i]];
      Arrays.fill(data, (byte) 'a');
      body.writeBytes(data);
      body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    return body.toByteArray();
  }

  private static Caller seed() {
    return new Caller("AKIAIOSFODNN7EXAMPLE", false, List.of(), AwsChunkedInputStream.SIGNED, "20130524T000000Z",
        "20130524/us-east-1/s3/aws4_request", S3Signatures.v4SigningKey(SECRET, "20130524", "us-east-1",
        "s3"), SEED, null, null);
  }

  @Test
  void theAwsExampleRequestAndItsChunksVerify() throws Exception {
    Map<String, String> headers = new HashMap<>();
    headers.put("host", "s3.amazonaws.com");
    headers.put("x-amz-date", "20130524T000000Z");
    headers.put("x-amz-storage-class", "REDUCED_REDUNDANCY");
    headers.put("content-encoding", "aws-chunked");
    headers.put("content-length", "66824");
    headers.put("x-amz-content-sha256", AwsChunkedInputStream.SIGNED);
    headers.put("x-amz-decoded-content-length", "66560");
    headers.put("authorization", "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/"
        + "aws4_request,SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;"
        + "x-amz-decoded-content-length;x-amz-storage-class,Signature=" + SEED);
    Caller signed = new RequestAuthenticator(new OneUser("AKIAIOSFODNN7EXAMPLE", SECRET)).authenticate("PUT",
        "/examplebucket/chunkObject.txt", Map.of(), headers::get, Instant.parse("2013-05-24T00:00:00Z"));
    byte[] body = awsExampleBody(CHUNK_SIGNATURES);
    assertEquals(66_824, body.length);
    byte[] decoded = new AwsChunkedInputStream(new ByteArrayInputStream(body), signed, AwsChunkedInputStream.SIGNED,
        null).readAllBytes();
    assertEquals(SIZE, decoded.length);
  }

  @Test
  void aChunkWithAWrongSignatureOrATamperedByteFails() {
    String[] wrong = CHUNK_SIGNATURES.clone();
    wrong[1] = wrong[1].replace('0', '1');
    assertEquals("SignatureDoesNotMatch", assertThrows(S3IOException.class, () -> new AwsChunkedInputStream(
        new ByteArrayInputStream(awsExampleBody(wrong)), seed(), AwsChunkedInputStream.SIGNED, null).readAllBytes())
        .error().code());
    byte[] tampered = awsExampleBody(CHUNK_SIGNATURES);
    tampered[1000] = 'b';
    assertEquals("SignatureDoesNotMatch", assertThrows(S3IOException.class, () -> new AwsChunkedInputStream(
        new ByteArrayInputStream(tampered), seed(), AwsChunkedInputStream.SIGNED, null).readAllBytes())
        .error().code());
  }

  private static InputStream unsignedWithCrc(byte[] data, String crcValue) {
    String body = Integer.toHexString(data.length) + "\r\n" + new String(data, StandardCharsets.ISO_8859_1)
        + "\r\n0\r\nx-amz-checksum-crc32:" + crcValue + "\r\n\r\n";
    return new ByteArrayInputStream(body.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void theAnnouncedTrailerIsGivenToTheCallerAndAMissingOneIsRefused() throws Exception {
    byte[] data = "hello trailer".getBytes(StandardCharsets.US_ASCII);
    AwsChunkedInputStream in = new AwsChunkedInputStream(unsignedWithCrc(data, "AAAAAA=="), seed(),
        AwsChunkedInputStream.UNSIGNED_TRAILER, "x-amz-checksum-crc32");
    assertArrayEquals(data, in.readAllBytes());
    assertEquals("AAAAAA==", in.trailer());
    assertEquals("InvalidRequest", assertThrows(S3IOException.class, () -> new AwsChunkedInputStream(
        unsignedWithCrc(data, "AAAAAA=="), seed(), AwsChunkedInputStream.UNSIGNED_TRAILER, "x-amz-checksum-sha256")
        .readAllBytes()).error().code());
  }
}
