package org.tropos.common.security;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * How an encrypted object (or one part of a multipart upload) is stored: a stream of AES-256-GCM segments under the
 * object's data key, so that a range is read and checked by decrypting the few segments that hold it. Format 1: an
 * 8-byte random prefix, then segments of {@value #SEGMENT} plaintext bytes each (the last one shorter, or empty for
 * an empty stream), each stored as its ciphertext followed by a 16-byte tag. Segment {@code i}'s 96-bit nonce is the
 * prefix and {@code i} as 4 bytes, the top bit set on the last segment: segments cannot be reordered, and a stream
 * cut short after a segment boundary fails at its end. The random prefix keeps two streams under one data key (the
 * parts of one upload, a part uploaded again) from sharing a nonce.
 *
 * <p>Immutable; thread-safe (each {@link Segments} has its own cipher).
 */
public final class SegmentedGcm {
  /** Plaintext bytes per segment. */
  public static final int SEGMENT = 64 * 1024;
  public static final int TAG_BYTES = 16;
  public static final int PREFIX_BYTES = 8;
  /** Stored bytes of a whole segment. */
  public static final int STORED_SEGMENT = SEGMENT + TAG_BYTES;
  public static final int KEY_BYTES = 32;
  private static final int LAST = 0x8000_0000;
  /** Segment indexes fit in the nonce's 31 bits below the last-segment flag. */
  private static final int MOST_SEGMENTS = Integer.MAX_VALUE;

  private SegmentedGcm() {
  }

  /** Segments of a stream of {@code plaintext} bytes (at least one: an empty stream has one empty segment). */
  public static long segments(long plaintext) {
    return Math.max(1, (plaintext + SEGMENT - 1) / SEGMENT);
  }

  /** Stored bytes of a stream of {@code plaintext} bytes. */
  public static long storedLength(long plaintext) {
    return PREFIX_BYTES + plaintext + TAG_BYTES * segments(plaintext);
  }

  /** Plaintext bytes of a stream stored in {@code stored} bytes; fails on a length no stream has. */
  public static long plaintextLength(long stored) {
    long body = stored - PREFIX_BYTES;
    if (body == TAG_BYTES) {
      return 0;
    }
    long rest = body % STORED_SEGMENT;
    if (body < TAG_BYTES || rest != 0 && rest <= TAG_BYTES) {
      throw new IllegalArgumentException(stored + " bytes are not an encrypted stream (format 1)");
    }
    return body / STORED_SEGMENT * SEGMENT + (rest == 0 ? 0 : rest - TAG_BYTES);
  }

  /** Where segment {@code index} starts in the stored stream. */
  public static long storedOffset(long index) {
    return PREFIX_BYTES + index * STORED_SEGMENT;
  }

  /**
   * The stored bytes {@code [storedFrom, storedTo)} that hold a range of a stream's plaintext: whole segments from
   * {@code firstSegment}, the range starting {@code skip} bytes into the first.
   */
  public record Span(long firstSegment, long storedFrom, long storedTo, int skip) {
  }

  /** Where plaintext {@code [from, from + length)} of a stream of {@code plaintext} bytes is stored. */
  public static Span span(long plaintext, long from, long length) {
    if (from < 0 || length < 0 || from + length > plaintext) {
      throw new IllegalArgumentException("bytes " + from + "+" + length + " of a stream of " + plaintext);
    }
    long first = Math.min(from, Math.max(0, plaintext - 1)) / SEGMENT;
    long last = length == 0 ? first : (from + length - 1) / SEGMENT;
    return new Span(first, storedOffset(first), Math.min(storedLength(plaintext), storedOffset(last + 1)),
        (int) (from - first * SEGMENT));
  }

  /** The segments of one stream under one data key: encrypts or decrypts them one at a time. Not thread-safe. */
  public static final class Segments {
    private final SecretKeySpec key;
    private final byte[] prefix;
    private final Cipher cipher;

    /** @param prefix the stream's random prefix */
    public Segments(byte[] dataKey, byte[] prefix) {
      this(dataKey, prefix, GcmCiphers.newCipher());
    }

    /** Segments that work with {@code cipher}, which is theirs alone while they are used. */
    Segments(byte[] dataKey, byte[] prefix, Cipher cipher) {
      if (dataKey.length != KEY_BYTES || prefix.length != PREFIX_BYTES) {
        throw new IllegalArgumentException("a data key is " + KEY_BYTES + " bytes and a prefix " + PREFIX_BYTES);
      }
      this.key = new SecretKeySpec(dataKey, "AES");
      this.prefix = prefix.clone();
      this.cipher = cipher;
    }

    /** Encrypts segment {@code index}'s plaintext {@code in} into {@code out} (ciphertext and tag). */
    public void encrypt(long index, boolean last, ByteBuffer in, ByteBuffer out) throws GeneralSecurityException {
      cipher.init(Cipher.ENCRYPT_MODE, key, nonce(index, last));
      doFinal(in, out);
    }

    /** Decrypts and checks segment {@code index} ({@code in}: ciphertext and tag) into {@code out}. */
    public void decrypt(long index, boolean last, ByteBuffer in, ByteBuffer out) throws GeneralSecurityException {
      cipher.init(Cipher.DECRYPT_MODE, key, nonce(index, last));
      doFinal(in, out);
    }

    /**
     * The array form where both buffers have arrays: the JDK's ByteBuffer form (JDK 17) takes a path several times
     * slower than its array form, and the native provider's is no faster with buffers either.
     */
    private void doFinal(ByteBuffer in, ByteBuffer out) throws GeneralSecurityException {
      if (!in.hasArray() || !out.hasArray()) {
        cipher.doFinal(in, out);
        return;
      }
      int n = cipher.doFinal(in.array(), in.arrayOffset() + in.position(), in.remaining(), out.array(),
          out.arrayOffset() + out.position());
      in.position(in.limit());
      out.position(out.position() + n);
    }

    private GCMParameterSpec nonce(long index, boolean last) {
      if (index < 0 || index > MOST_SEGMENTS) {
        throw new IllegalArgumentException("no segment " + index + " in a stream");
      }
      int counter = (int) index | (last ? LAST : 0);
      return new GCMParameterSpec(TAG_BYTES * 8, ByteBuffer.allocate(12).put(prefix).putInt(counter).array());
    }
  }
}
