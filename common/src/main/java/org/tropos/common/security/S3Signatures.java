package org.tropos.common.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keyed part of AWS's request signatures, which needs the secret: the OM computes it (it alone holds the
 * secrets), the S3 gateway builds what is signed from the HTTP request. Signature V4 is an HMAC-SHA256 under a key
 * derived from the secret for one day, region and service; V2 an HMAC-SHA1 under the secret itself.
 */
public final class S3Signatures {
  private static final ThreadLocal<Mac> HMAC_SHA256 = ThreadLocal.withInitial(() -> mac("HmacSHA256"));
  private static final ThreadLocal<Mac> HMAC_SHA1 = ThreadLocal.withInitial(() -> mac("HmacSHA1"));

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
    return Base64.getEncoder().encodeToString(hmac(HMAC_SHA1.get(), secret.getBytes(StandardCharsets.UTF_8),
        stringToSign));
  }

  /** Constant-time comparison of two signatures. */
  public static boolean same(String expected, String given) {
    return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
        given.getBytes(StandardCharsets.US_ASCII));
  }

  public static byte[] hmacSha256(byte[] key, String data) {
    return hmac(HMAC_SHA256.get(), key, data);
  }

  private static byte[] hmac(Mac mac, byte[] key, String data) {
    try {
      mac.init(new SecretKeySpec(key, mac.getAlgorithm()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(mac.getAlgorithm() + " refused a key", e);
    }
    return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
  }

  /** One per thread, rather than looking the algorithm up among the security providers for each HMAC. */
  private static Mac mac(String algorithm) {
    try {
      return Mac.getInstance(algorithm);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " is missing from this JVM", e);
    }
  }
}
