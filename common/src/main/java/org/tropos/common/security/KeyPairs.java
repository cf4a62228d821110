package org.tropos.common.security;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;

/** New key pairs of the configured algorithm and size, from the JDK's providers. */
public final class KeyPairs {
  private KeyPairs() {
  }

  public static KeyPair generate(X509Settings settings) throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(settings.keyAlgorithm());
    if (settings.keyAlgorithm().equals("EC")) {
      generator.initialize(new ECGenParameterSpec(settings.keyLength() == 384 ? "secp384r1" : "secp256r1"));
    } else {
      generator.initialize(settings.keyLength());
    }
    return generator.generateKeyPair();
  }
}
