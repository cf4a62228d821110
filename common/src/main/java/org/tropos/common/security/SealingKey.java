package org.tropos.common.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A key that seals small secrets kept at rest (the OM's S3 secrets): AES-256-GCM with a fresh random 96-bit nonce
 * per sealing, and the context a secret belongs to (its row's key) bound as associated data, so that a sealed value
 * copied into another row does not open. It is named by the first 8 bytes of its SHA-256, which sealed values
 * carry beside them, so a value sealed with another key is told apart from a damaged one.
 *
 * <p>Immutable; thread-safe (each thread seals and opens with a cipher of its own, kept for its next call: making
 * one, which looks the algorithm up among the providers, cost an OM more than the sealing itself, once per
 * encrypted object written or read).
 */
public final class SealingKey {
  private static final int KEY_BYTES = 32;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] key;
  /** The same key object every time: a provider may keep its key schedule for the key it was last given. */
  private final SecretKeySpec aesKey;
  private final ThreadLocal<Cipher> ciphers = ThreadLocal.withInitial(GcmCiphers::newCipher);
  private final String id;

  private SealingKey(byte[] key) {
    if (key.length != KEY_BYTES) {
      throw new IllegalArgumentException("a sealing key is " + KEY_BYTES + " bytes, not " + key.length);
    }
    this.key = key.clone();
    this.aesKey = new SecretKeySpec(this.key, "AES");
    try {
      this.id = HexFormat.of().formatHex(Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(key), 8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  /** A new random key. */
  public static SealingKey generate() {
    byte[] key = new byte[KEY_BYTES];
    RANDOM.nextBytes(key);
    return new SealingKey(key);
  }

  public static SealingKey of(byte[] key) {
    return new SealingKey(key);
  }

  /**
   * A key of its own for {@code purpose} (HMAC-SHA256 of the purpose under this key), so that values sealed for one
   * purpose never open as another's, and this key itself seals nothing of that purpose.
   */
  public SealingKey derive(String purpose) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return new SealingKey(mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HMAC-SHA256", e);
    }
  }

  public String id() {
    return id;
  }

  public byte[] encoded() {
    return key.clone();
  }

  /** {@code plaintext} sealed for {@code context}: the nonce, then the ciphertext and its tag. */
  public byte[] seal(byte[] plaintext, byte[] context) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    try {
      byte[] sealed = cipher(Cipher.ENCRYPT_MODE, nonce, context).doFinal(plaintext);
      return ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM failed to seal", e);
    }
  }

  /** What {@link #seal} sealed for {@code context}; fails if it was sealed otherwise, or changed since. */
  public byte[] open(byte[] sealed, byte[] context) throws GeneralSecurityException {
    if (sealed.length < NONCE_BYTES + TAG_BITS / 8) {
      throw new GeneralSecurityException("a sealed value of " + sealed.length + " bytes is too short");
    }
    return cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(sealed, NONCE_BYTES), context).doFinal(sealed, NONCE_BYTES,
        sealed.length - NONCE_BYTES);
  }

  private Cipher cipher(int mode, byte[] nonce, byte[] context) throws GeneralSecurityException {
    Cipher cipher = ciphers.get();
    cipher.init(mode, aesKey, new GCMParameterSpec(TAG_BITS, nonce));
    cipher.updateAAD(context);
    return cipher;
  }

  @Override
  public String toString() {
    return "SealingKey[" + id + "]";
  }
}
