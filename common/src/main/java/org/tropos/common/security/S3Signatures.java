package org.tropos.common.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The keyed part of AWS's request signatures, which needs the secret: the OM computes it (it alone holds the
 * secrets), the S3 gateway builds what is signed from the HTTP request. Signature V4 is an HMAC-SHA256 under a key
 * derived from the secret for one day, region and service; V2 an HMAC-SHA1 under the secret itself.
 */
public final class S3Signatures {
  private S3Signatures() {
  }

  /** Signature V4's key derived from {@code secret} for one day ({@code yyyyMMdd}), region and service. */
  public static byte[] v4SigningKey(String secret, String date, String region, String service) {
    byte[] key = hmacSha256(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
    key = hmacSha256(key, region);
    key = hmacSha256(key, service);
    return hmacSha256(key, "aws4_request");
  }

  /** Signature V4 of {@code stringToSign} under {@code signingKey}, in hex. */
  public static String v4Signature(byte[] signingKey, String stringToSign) {
    return HexFormat.of().formatHex(hmacSha256(signingKey, stringToSign));
  }

  /** Signature V2 of {@code stringToSign} under {@code secret}, in base64. */
  public static String v2Signature(String secret, String stringToSign) {
    return Base64.getEncoder().encodeToString(Hmacs.sha1(secret.getBytes(StandardCharsets.UTF_8),
        utf8(stringToSign)));
  }

  /** Constant-time comparison of two signatures. */
  public static boolean same(String expected, String given) {
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
        given.getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] hmacSha256(byte[] key, String data) {
    return Hmacs.sha256(key, utf8(data));
  }

  private static ByteBuffer utf8(String data) {
    return ByteBuffer.wrap(data.getBytes(StandardCharsets.UTF_8));
  }
}
