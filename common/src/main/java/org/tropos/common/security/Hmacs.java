package org.tropos.common.security;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMACs with one {@link Mac} per thread and algorithm: looking an algorithm up among the security providers costs
 * more than the HMAC of a signature's string or a block token.
 */
public final class Hmacs {
  private static final ThreadLocal<Mac> SHA256 = ThreadLocal.withInitial(() -> instance("HmacSHA256"));
  private static final ThreadLocal<Mac> SHA1 = ThreadLocal.withInitial(() -> instance("HmacSHA1"));

  private Hmacs() {
  }

  public static byte[] sha256(byte[] key, ByteBuffer data) {
    return hmac(SHA256.get(), key, data);
  }

  public static byte[] sha1(byte[] key, ByteBuffer data) {
    return hmac(SHA1.get(), key, data);
  }

  private static byte[] hmac(Mac mac, byte[] key, ByteBuffer data) {
    try {
      mac.init(new SecretKeySpec(key, mac.getAlgorithm()));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(mac.getAlgorithm() + " refused a key", e);
    }
    mac.update(data);
    return mac.doFinal();
  }

  private static Mac instance(String algorithm) {
    try {
      return Mac.getInstance(algorithm);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(algorithm + " is missing from this JVM", e);
    }
  }
}
