package org.tropos.common.security;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

/**
 * Writes what it is given as an encrypted stream ({@link SegmentedGcm}, format 1) to another stream: the random
 * prefix first, then each segment once the next byte shows it is not the last; closing seals the last segment
 * (empty for an empty stream) and closes the stream below. Its length need not be known before.
 *
 * <p>Not thread-safe.
 */
public final class EncryptingOutputStream extends OutputStream {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final OutputStream out;
  private final SegmentedGcm.Segments segments;
  private final ByteBuffer plain = ByteBuffer.allocate(SegmentedGcm.SEGMENT);
  private final ByteBuffer sealed = ByteBuffer.allocate(SegmentedGcm.STORED_SEGMENT);
  private long index;
  private boolean closed;

  public EncryptingOutputStream(OutputStream out, byte[] dataKey) throws IOException {
    byte[] prefix = new byte[SegmentedGcm.PREFIX_BYTES];
    RANDOM.nextBytes(prefix);
    this.out = out;
    this.segments = new SegmentedGcm.Segments(dataKey, prefix);
    out.write(prefix);
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("the encrypted stream is closed");
    }
    while (len > 0) {
      if (!plain.hasRemaining()) {
        seal(false);
      }
      int n = Math.min(len, plain.remaining());
      plain.put(b, off, n);
      off += n;
      len -= n;
    }
  }

  /** Flushes the segments sealed so far; the one being filled is written when full or at close. */
  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      try {
        seal(true);
      } finally {
        out.close();
      }
    }
  }

  private void seal(boolean last) throws IOException {
    plain.flip();
    sealed.clear();
    try {
      segments.encrypt(index++, last, plain, sealed);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot encrypt segment " + (index - 1), e);
    }
    out.write(sealed.array(), 0, sealed.position());
    plain.clear();
  }
}
