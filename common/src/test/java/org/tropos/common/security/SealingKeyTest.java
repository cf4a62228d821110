package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SealingKeyTest {
  private static final byte[] SECRET = "s3-secret-0123456789".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ALICE = "alice".getBytes(StandardCharsets.UTF_8);

  @Test
  void aSealedSecretOpensWithItsKeyAndContextOnly() throws Exception {
    SealingKey key = SealingKey.generate();
    byte[] sealed = key.seal(SECRET, ALICE);
    assertArrayEquals(SECRET, key.open(sealed, ALICE));
    assertFalse(Arrays.equals(sealed, key.seal(SECRET, ALICE)), "a fresh nonce each time");
    assertThrows(GeneralSecurityException.class, () -> key.open(sealed, "bob".getBytes(StandardCharsets.UTF_8)),
        "moved to another row");
    assertThrows(GeneralSecurityException.class, () -> SealingKey.generate().open(sealed, ALICE), "another key");
    byte[] flipped = sealed.clone();
    flipped[flipped.length / 2] ^= 1;
    assertThrows(GeneralSecurityException.class, () -> key.open(flipped, ALICE), "changed");
    assertThrows(GeneralSecurityException.class, () -> key.open(new byte[5], ALICE), "too short");
  }

  /**
   * Values sealed before the sealing cipher came from the native provider (S3 secrets and data keys in databases)
   * are the JDK's AES-GCM: the nonce, then ciphertext and tag. Both ways open under the other, and a thread's cipher
   * kept from one call serves the next, however the last one ended.
   */
  @Test
  void aValueSealedByTheJdksCipherOpensAndTheReverse() throws Exception {
    SealingKey key = SealingKey.generate();
    byte[] nonce = new byte[12];
    nonce[0] = 7;
    Cipher jdk = GcmCiphers.jdkCipher();
    jdk.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key.encoded(), "AES"), new GCMParameterSpec(128, nonce));
    jdk.updateAAD(ALICE);
    byte[] sealedByJdk = ByteBuffer.allocate(12 + SECRET.length + 16).put(nonce).put(jdk.doFinal(SECRET)).array();
    byte[] flipped = sealedByJdk.clone();
    flipped[14] ^= 1;
    assertThrows(GeneralSecurityException.class, () -> key.open(flipped, ALICE));
    assertArrayEquals(SECRET, key.open(sealedByJdk, ALICE), "after a failed open");

    byte[] sealed = key.seal(SECRET, ALICE);
    jdk.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key.encoded(), "AES"), new GCMParameterSpec(128, sealed, 0,
        12));
    jdk.updateAAD(ALICE);
    assertArrayEquals(SECRET, jdk.doFinal(sealed, 12, sealed.length - 12));
  }

  @Test
  void aKeyIsNamedByItsBytes() {
    SealingKey key = SealingKey.generate();
    assertEquals(key.id(), SealingKey.of(key.encoded()).id());
    assertEquals(16, key.id().length());
    assertFalse(key.id().equals(SealingKey.generate().id()));
    assertThrows(IllegalArgumentException.class, () -> SealingKey.of(new byte[16]));
  }

  @Test
  void aDerivedKeyIsTheSameForOnePurposeAndOpensNothingOfAnother() throws Exception {
    SealingKey key = SealingKey.generate();
    SealingKey dataKeys = key.derive("data keys");
    assertEquals(dataKeys.id(), SealingKey.of(key.encoded()).derive("data keys").id(), "derived again alike");
    assertFalse(dataKeys.id().equals(key.id()));
    assertFalse(dataKeys.id().equals(key.derive("other").id()));
    byte[] sealed = dataKeys.seal(SECRET, ALICE);
    assertThrows(GeneralSecurityException.class, () -> key.open(sealed, ALICE), "the key derived from");
    assertThrows(GeneralSecurityException.class, () -> key.derive("other").open(sealed, ALICE), "another purpose");
  }
}
