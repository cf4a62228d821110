package org.tropos.s3.checksum;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import software.amazon.awssdk.crt.checksums.CRC64NVME;

/**
 * S3's flexible checksums (x-amz-checksum-*): the JDK's CRC32, CRC32C, SHA-1 and SHA-256, and the AWS CRT's
 * CRC64NVME (S3's default, which the JDK lacks). A CRC's value is its register, big-endian, in its width.
 */
public enum ChecksumAlgorithm {
  CRC32(4, CRC32::new, null, 0xEDB88320L),
  CRC32C(4, CRC32C::new, null, 0x82F63B78L),
  CRC64NVME(8, CRC64NVME::new, null, 0x9A6C9329AC4BC9B5L),
  SHA1(20, null, "SHA-1", 0),
  SHA256(32, null, "SHA-256", 0);

  static final String PREFIX = "x-amz-checksum-";

  private final int bytes;
  private final Supplier<Checksum> crc;
  private final String digest;
  /** The CRC's polynomial, reflected (as the algorithm shifts right): what {@link CrcCombine} needs. */
  private final long reflectedPolynomial;

  ChecksumAlgorithm(int bytes, Supplier<Checksum> crc, String digest, long reflectedPolynomial) {
    this.bytes = bytes;
    this.crc = crc;
    this.digest = digest;
    this.reflectedPolynomial = reflectedPolynomial;
  }

  /** The algorithm S3 names {@code name} (CRC32, crc64nvme, ...), any case. */
  public static Optional<ChecksumAlgorithm> named(String name) {
    String upper = name.strip().toUpperCase(Locale.ROOT);
    for (ChecksumAlgorithm a : values()) {
      if (a.name().equals(upper)) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /** The algorithm whose header (or trailer) is {@code header}, such as x-amz-checksum-crc32, any case. */
  public static Optional<ChecksumAlgorithm> ofHeader(String header) {
    String lower = header.strip().toLowerCase(Locale.ROOT);
    return lower.startsWith(PREFIX) ? named(lower.substring(PREFIX.length())) : Optional.empty();
  }

  /** The header (and trailer) that carries this checksum: x-amz-checksum-crc32, ... */
  public String header() {
    return PREFIX + name().toLowerCase(Locale.ROOT);
  }

  /** The element of S3's XML that carries it: ChecksumCRC32, ... */
  public String xmlElement() {
    return "Checksum" + name();
  }

  /** The length of a value, in bytes. */
  public int bytes() {
    return bytes;
  }

  /** Whether it is a CRC: CRCs of parts combine into the CRC of the whole (FULL_OBJECT multipart checksums). */
  public boolean isCrc() {
    return crc != null;
  }

  long reflectedPolynomial() {
    return reflectedPolynomial;
  }

  /** A new running computation. */
  public Hasher newHasher() {
    if (crc != null) {
      Checksum c = crc.get();
      return new Hasher() {
        @Override
        public void update(byte[] b, int off, int len) {
          c.update(b, off, len);
        }

        @Override
        public byte[] value() {
          return bigEndian(c.getValue(), bytes);
        }
      };
    }
    MessageDigest md = messageDigest(digest);
    return new Hasher() {
      @Override
      public void update(byte[] b, int off, int len) {
        md.update(b, off, len);
      }

      @Override
      public byte[] value() {
        return md.digest();
      }
    };
  }

  /** The checksum of {@code data}, in one go. */
  public byte[] of(byte[] data) {
    Hasher h = newHasher();
    h.update(data, 0, data.length);
    return h.value();
  }

  static byte[] bigEndian(long value, int bytes) {
    return bytes == 8 ? ByteBuffer.allocate(8).putLong(value).array()
        : ByteBuffer.allocate(4).putInt((int) value).array();
  }

  private static MessageDigest messageDigest(String name) {
    try {
      return MessageDigest.getInstance(name);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(name + " is missing from this JVM", e);
    }
  }

  /** A checksum computed as bytes stream by. Not thread-safe. */
  public interface Hasher {
    void update(byte[] b, int off, int len);

    /** The checksum of everything given so far (once: a digest is reset by it). */
    byte[] value();
  }
}
