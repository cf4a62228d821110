package org.tropos.s3.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/** Checked against the examples AWS publishes for S3's Signature V4 (header and presigned URL). */
class RequestAuthenticatorTest {
  private static final String ACCESS = "AKIAIOSFODNN7EXAMPLE";
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  private static final Instant SIGNED_AT = Instant.parse("2013-05-24T00:00:00Z");
  private static final String GET_OBJECT_SIGNATURE =
      "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41";
  private static final String PRESIGNED_SIGNATURE =
      "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404";

  private final RequestAuthenticator authenticator = new RequestAuthenticator(new OneUser(ACCESS, SECRET));

  private static UnaryOperator<String> headers(String signature) {
    Map<String, String> h = new HashMap<>();
    h.put("host", "examplebucket.s3.amazonaws.com");
    h.put("range", "bytes=0-9");
    h.put("x-amz-content-sha256", SigV4.EMPTY_SHA256);
    h.put("x-amz-date", "20130524T000000Z");
    if (signature != null) {
      h.put("authorization", "AWS4-HMAC-SHA256 Credential=" + ACCESS + "/20130524/us-east-1/s3/aws4_request,"
          + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=" + signature);
    }
    return h::get;
  }

  @Test
  void awsHeaderExampleVerifies() throws Exception {
    Caller signed = authenticator.authenticate("GET", "/test.txt", Map.of(),
        headers(GET_OBJECT_SIGNATURE), SIGNED_AT.plusSeconds(60));
    assertEquals(ACCESS, signed.accessId());
    assertEquals(SigV4.EMPTY_SHA256, signed.payloadHash());
  }

  @Test
  void aWrongSignatureOrAnotherPathIsRefusedAndNoSignatureIsTheAnonymousCaller() throws Exception {
    assertEquals("SignatureDoesNotMatch", assertThrows(S3Error.class, () -> authenticator.authenticate("GET",
        "/test.txt", Map.of(), headers(GET_OBJECT_SIGNATURE.replace('f', 'e')), SIGNED_AT)).code());
    assertEquals("SignatureDoesNotMatch", assertThrows(S3Error.class, () -> authenticator.authenticate("GET",
        "/other.txt", Map.of(), headers(GET_OBJECT_SIGNATURE), SIGNED_AT)).code());
    assertEquals(Caller.ANONYMOUS, authenticator.authenticate("GET", "/test.txt", Map.of(), headers(null),
        SIGNED_AT));
    assertEquals("RequestTimeTooSkewed", assertThrows(S3Error.class, () -> authenticator.authenticate("GET",
        "/test.txt", Map.of(), headers(GET_OBJECT_SIGNATURE), SIGNED_AT.plusSeconds(3600))).code());
  }

  private static Map<String, List<String>> presignedQuery() {
    Map<String, List<String>> q = new HashMap<>();
    q.put("X-Amz-Algorithm", List.of("AWS4-HMAC-SHA256"));
    q.put("X-Amz-Credential", List.of(ACCESS + "/20130524/us-east-1/s3/aws4_request"));
    q.put("X-Amz-Date", List.of("20130524T000000Z"));
    q.put("X-Amz-Expires", List.of("86400"));
    q.put("X-Amz-SignedHeaders", List.of("host"));
    q.put("X-Amz-Signature", List.of(PRESIGNED_SIGNATURE));
    return q;
  }

  @Test
  void awsPresignedExampleVerifiesUntilItExpires() throws Exception {
    UnaryOperator<String> host = name -> name.equals("host") ? "examplebucket.s3.amazonaws.com" : null;
    assertEquals(ACCESS, authenticator.authenticate("GET", "/test.txt", presignedQuery(), host,
        SIGNED_AT.plusSeconds(86_000)).accessId());
    S3Error expired = assertThrows(S3Error.class, () -> authenticator.authenticate("GET", "/test.txt",
        presignedQuery(), host, SIGNED_AT.plusSeconds(86_401)));
    assertEquals("AccessDenied", expired.code());
  }

  @Test
  void queryEncodingFollowsAws() {
    assertEquals("a%20b%2Fc~-_.", SigV4.uriEncode("a b/c~-_."));
    assertEquals("a=1&b=&b=x&c%20d=%C3%A9", SigV4.canonicalQuery(Map.of("b", List.of("x", ""), "a", List.of("1"),
        "c d", List.of("é"))));
  }

  @Test
  void awsSignatureV2ExamplesVerify() throws Exception {
    UnaryOperator<String> header = name -> switch (name) {
      case "authorization" -> "AWS " + ACCESS + ":bWq2s1WEIj+Ydj0vQ697zp+IXMU=";
      case "date" -> "Tue, 27 Mar 2007 19:36:42 +0000";
      case "host" -> "johnsmith.s3.amazonaws.com";
      default -> null;
    };
    Instant then = Instant.parse("2007-03-27T19:36:42Z");
    assertEquals(ACCESS, authenticator.authenticate("GET", "/photos/puppy.jpg", "/johnsmith/photos/puppy.jpg",
        Map.of(), header, Map.of(), then).accessId());
    Map<String, List<String>> presigned = Map.of("AWSAccessKeyId", List.of(ACCESS), "Expires",
        List.of("1175139620"), "Signature", List.of("NpgCjnDzrM+WFzoENXmpNDUsSn8="));
    UnaryOperator<String> none = name -> null;
    assertEquals(ACCESS, authenticator.authenticate("GET", "/photos/puppy.jpg", "/johnsmith/photos/puppy.jpg",
        presigned, none, Map.of(), then).accessId());
    assertEquals("AccessDenied", assertThrows(S3Error.class, () -> authenticator.authenticate("GET",
        "/photos/puppy.jpg", "/johnsmith/photos/puppy.jpg", presigned, none, Map.of(),
        Instant.ofEpochSecond(1175139621))).code());
  }

  /** botocore signs a path-style request to a bucket itself with the resource "/bucket/"; "/other/" stays wrong. */
  @Test
  void aBucketRequestSignedWithVersion2AsBucketSlashVerifies() throws Exception {
    String date = "Tue, 27 Mar 2007 19:36:42 +0000";
    String signature = java.util.Base64.getEncoder().encodeToString(hmac("HmacSHA1", SECRET.getBytes(),
        "PUT\n\n\n" + date + "\n/johnsmith/"));
    UnaryOperator<String> header = name -> switch (name) {
      case "authorization" -> "AWS " + ACCESS + ":" + signature;
      case "date" -> date;
      default -> null;
    };
    Instant then = Instant.parse("2007-03-27T19:36:42Z");
    assertEquals(ACCESS, authenticator.authenticate("PUT", "/johnsmith", "/johnsmith", Map.of(), header, Map.of(),
        then).accessId());
    assertEquals("SignatureDoesNotMatch", assertThrows(S3Error.class, () -> authenticator.authenticate("PUT",
        "/other", "/other", Map.of(), header, Map.of(), then)).code());
  }

  /** HMAC computed here with the JDK alone, not with the classes under test. */
  private static byte[] hmac(String algorithm, byte[] key, String data) throws Exception {
    javax.crypto.Mac mac = javax.crypto.Mac.getInstance(algorithm);
    mac.init(new javax.crypto.spec.SecretKeySpec(key, algorithm));
    return mac.doFinal(data.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void aFormPolicySignedWithVersion2Or4NamesItsSigner() throws Exception {
    String policy = "eyJleHBpcmF0aW9uIjogIjIwMzAtMDEtMDFUMDA6MDA6MDBaIiwgImNvbmRpdGlvbnMiOiBbXX0=";
    String v2 = java.util.Base64.getEncoder().encodeToString(hmac("HmacSHA1", SECRET.getBytes(), policy));
    assertEquals(ACCESS, authenticator.authenticateForm(Map.of("policy", policy, "awsaccesskeyid", ACCESS,
        "signature", v2)).accessId());
    byte[] key = ("AWS4" + SECRET).getBytes();
    for (String part : List.of("20261125", "us-east-1", "s3", "aws4_request")) {
      key = hmac("HmacSHA256", key, part);
    }
    String v4 = java.util.HexFormat.of().formatHex(hmac("HmacSHA256", key, policy));
    Map<String, String> form = new HashMap<>(Map.of("policy", policy, "x-amz-algorithm", "AWS4-HMAC-SHA256",
        "x-amz-credential", ACCESS + "/20261125/us-east-1/s3/aws4_request", "x-amz-date", "20261125T000000Z",
        "x-amz-signature", v4));
    assertEquals(ACCESS, authenticator.authenticateForm(form).accessId());

    form.put("x-amz-signature", v4.replace(v4.charAt(0), v4.charAt(0) == 'a' ? 'b' : 'a'));
    assertEquals(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH, assertThrows(S3Error.class,
        () -> authenticator.authenticateForm(form)).errorCode());
    assertEquals(S3ErrorCode.INVALID_ACCESS_KEY_ID, assertThrows(S3Error.class,
        () -> authenticator.authenticateForm(Map.of("policy", policy, "awsaccesskeyid", "nobody", "signature", v2)))
        .errorCode());
    assertEquals(S3ErrorCode.INVALID_ARGUMENT, assertThrows(S3Error.class,
        () -> authenticator.authenticateForm(Map.of("policy", policy, "awsaccesskeyid", ACCESS))).errorCode());
    assertEquals(S3ErrorCode.INVALID_ARGUMENT, assertThrows(S3Error.class,
        () -> authenticator.authenticateForm(Map.of("signature", v2))).errorCode());
    assertEquals(Caller.ANONYMOUS, authenticator.authenticateForm(Map.of("key", "a")));
  }

  @Test
  void anAmzDateIsReadExactlyAndAnythingElseIsMalformed() throws S3Error {
    assertEquals(Instant.parse("2013-05-24T00:00:00Z"), RequestAuthenticator.parseDate("20130524T000000Z"));
    assertEquals(Instant.parse("2026-11-27T23:59:58Z"), RequestAuthenticator.parseDate("20261127T235958Z"));
    for (String bad : new String[] {"20130524T000000", "20130524 000000Z", "2013-05-24T00:00:00Z", "20131324T000000Z",
        "20130230T000000Z", "20130524T246000Z", "2013052+T000000Z", "20130524T00000aZ", ""}) {
      S3Error e = assertThrows(S3Error.class, () -> RequestAuthenticator.parseDate(bad), bad);
      assertEquals(S3ErrorCode.ACCESS_DENIED, e.errorCode(), bad);
    }
  }
}
