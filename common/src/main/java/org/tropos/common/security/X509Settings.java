package org.tropos.common.security;

import java.time.Duration;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.SecurityKeys;

/** How key pairs are made and certificates signed, and how long they last ({@code hdds.key.*}, {@code hdds.x509.*}). */
public record X509Settings(String keyAlgorithm, int keyLength, String signatureAlgorithm, Duration validity,
    Duration caValidity, Duration renewGrace) {

  public X509Settings {
    boolean rsa = keyAlgorithm.equals("RSA");
    if (rsa != (keyLength >= 2048) || rsa != signatureAlgorithm.toUpperCase(java.util.Locale.ROOT).endsWith("RSA")) {
      throw new IllegalArgumentException("hdds.key.algo " + keyAlgorithm + ", hdds.key.len " + keyLength
          + " and hdds.x509.signature.algorithm " + signatureAlgorithm + " do not go together: RSA takes 2048 to"
          + " 8192 bits and a ...withRSA signature, EC a 256 or 384-bit curve and a ...withECDSA one");
    }
    if (validity.compareTo(caValidity) > 0) {
      throw new IllegalArgumentException("hdds.x509.default.duration " + validity + " is longer than the CA's"
          + " own certificate lasts (hdds.x509.max.duration " + caValidity + ")");
    }
  }

  /** The settings {@code conf} makes; ConfigException when its keys do not go together. */
  public static X509Settings from(Configuration conf) {
    try {
      return new X509Settings(conf.get(SecurityKeys.KEY_ALGORITHM), conf.get(SecurityKeys.KEY_LENGTH),
          conf.get(SecurityKeys.SIGNATURE_ALGORITHM), conf.get(SecurityKeys.DEFAULT_DURATION),
          conf.get(SecurityKeys.MAX_DURATION), conf.get(SecurityKeys.RENEW_GRACE_DURATION));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }
}
