package org.tropos.common.security;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.Provider;
import javax.crypto.Cipher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the AES-GCM ciphers of objects encrypted at rest come from: Amazon Corretto Crypto Provider (AWS-LC, whose
 * AES-GCM runs AES and GHASH stitched together) when its native library loads, else the JDK. On this project's
 * machines the JDK 17's decrypts 2.5-4.5 GB/s on one core and AWS-LC's 7-10 GB/s, and every byte of an encrypted
 * GET or PUT passes through it once more than a plain one's. Both implement the same standard cipher, so either
 * reads what the other wrote. {@code -Dtropos.crypto.native=false} keeps to the JDK's (a site that allows only
 * its JDK's providers).
 *
 * <p>Thread-safe; each cipher made is its caller's alone.
 */
final class GcmCiphers {
  private static final Logger LOG = LoggerFactory.getLogger(GcmCiphers.class);
  private static final String TRANSFORMATION = "AES/GCM/NoPadding";
  /** The native provider, or null for the JDK's. */
  private static final Provider NATIVE = nativeProvider();

  private GcmCiphers() {
  }

  /** A new AES-GCM cipher. */
  static Cipher newCipher() {
    try {
      return NATIVE != null ? Cipher.getInstance(TRANSFORMATION, NATIVE) : jdkCipher();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no AES-GCM from " + NATIVE, e);
    }
  }

  /** A new AES-GCM cipher of the JDK's own, whichever is chosen for {@link #newCipher}. */
  static Cipher jdkCipher() {
    try {
      return Cipher.getInstance(TRANSFORMATION);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no AES-GCM", e);
    }
  }

  /** Whether {@link #newCipher} makes native ciphers. */
  static boolean isNative() {
    return NATIVE != null;
  }

  private static Provider nativeProvider() {
    if (!Boolean.parseBoolean(System.getProperty("tropos.crypto.native", "true"))) {
      return null;
    }
    try {
      AmazonCorrettoCryptoProvider provider = AmazonCorrettoCryptoProvider.INSTANCE;
      if (provider.getLoadingError() != null) {
        LOG.info("AES-GCM of encrypted objects is the JDK's: {} did not load ({})", provider.getName(),
            provider.getLoadingError().toString());
        return null;
      }
      return provider;
    } catch (LinkageError e) {
      LOG.info("AES-GCM of encrypted objects is the JDK's: the native provider did not load ({})", e.toString());
      return null;
    }
  }
}
