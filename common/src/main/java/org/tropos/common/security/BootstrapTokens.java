package org.tropos.common.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One-time tokens with which a daemon gets its first certificate. An operator who can read the SCM's bootstrap
 * secret mints one per daemon, offline: {@code <role>.<expiry>.<nonce>.<ca>.<mac>}, where {@code ca} is the
 * SHA-256 of the CA certificate the daemon is to trust (so its first TLS connection to SCM is pinned, not trusted
 * on first use) and {@code mac} an HMAC-SHA256 of the rest under the secret. SCM accepts a token for a request of
 * its role, before its expiry, and each nonce once (the caller records nonces: {@link Token#nonce}).
 */
public final class BootstrapTokens {
  private static final String HMAC = "HmacSHA256";
  private static final HexFormat HEX = HexFormat.of();
  private static final int NONCE_BYTES = 16;
  private static final int SECRET_BYTES = 32;

  private final byte[] secret;

  /** What a valid token says. */
  public record Token(ServiceRole role, Instant expiry, String nonce, String caFingerprint) {
  }

  public BootstrapTokens(byte[] secret) {
    if (secret.length < SECRET_BYTES) {
      throw new IllegalArgumentException("a bootstrap secret has at least " + SECRET_BYTES + " bytes");
    }
    this.secret = secret.clone();
  }

  /** A new random secret. */
  public static byte[] newSecret() {
    byte[] secret = new byte[SECRET_BYTES];
    new SecureRandom().nextBytes(secret);
    return secret;
  }

  /** A token for a daemon of {@code role} that trusts {@code ca}, valid until {@code expiry}. */
  public String mint(ServiceRole role, Instant expiry, X509Certificate ca) throws GeneralSecurityException {
    byte[] nonce = new byte[NONCE_BYTES];
    new SecureRandom().nextBytes(nonce);
    String body = role.subjectName() + "." + expiry.getEpochSecond() + "." + HEX.formatHex(nonce) + "."
        + fingerprint(ca);
    return body + "." + HEX.formatHex(mac(body));
  }

  /**
   * The fingerprint of the CA {@code token} tells its holder to trust, read without the secret (which only SCM
   * has); empty for a malformed token.
   */
  public static Optional<String> pinnedCa(String token) {
    String[] parts = token.strip().split("\\.", -1);
    return parts.length == 5 ? Optional.of(parts[3]) : Optional.empty();
  }

  /** What {@code token} says, if this secret made it (expiry and nonce are the caller's to check). */
  public Optional<Token> verify(String token) {
    String[] parts = token.strip().split("\\.", -1);
    if (parts.length != 5) {
      return Optional.empty();
    }
    String body = String.join(".", parts[0], parts[1], parts[2], parts[3]);
    try {
      if (!MessageDigest.isEqual(mac(body), HEX.parseHex(parts[4]))) {
        return Optional.empty();
      }
      Optional<ServiceRole> role = ServiceRole.ofSubjectName(parts[0]);
      return role.map(r -> new Token(r, Instant.ofEpochSecond(Long.parseLong(parts[1])), parts[2], parts[3]));
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      return Optional.empty();
    }
  }

  /** The fingerprint a token pins: the SHA-256 of the certificate's encoding, in hex. */
  public static String fingerprint(X509Certificate certificate) throws GeneralSecurityException {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
    } catch (CertificateEncodingException e) {
      throw new GeneralSecurityException("encoding the CA certificate", e);
    }
  }

  private byte[] mac(String body) throws GeneralSecurityException {
    Mac mac = Mac.getInstance(HMAC);
    mac.init(new SecretKeySpec(secret, HMAC));
    return mac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
  }
}
