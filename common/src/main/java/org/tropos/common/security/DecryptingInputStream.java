package org.tropos.common.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;

/**
 * Reads a range of an encrypted stream's plaintext ({@link SegmentedGcm}, format 1) from its stored segments,
 * checking each segment's tag before any of its bytes is delivered: a changed byte, a segment moved or a stream
 * cut short is an {@link IOException}, never wrong data.
 *
 * <p>Not thread-safe.
 */
public final class DecryptingInputStream extends InputStream {
  private final InputStream in;
  private final SegmentedGcm.Segments segments;
  private final long lastSegment;
  private final long streamPlaintext;
  private final ByteBuffer sealed = ByteBuffer.allocate(SegmentedGcm.STORED_SEGMENT);
  private final ByteBuffer plain = ByteBuffer.allocate(SegmentedGcm.SEGMENT);
  private long index;
  private int skip;
  private long left;

  /**
   * @param in the stored bytes from the start of {@code span}'s first segment
   * @param prefix the stream's prefix (its first stored bytes)
   * @param streamPlaintext the whole stream's plaintext length
   * @param span where the range is ({@link SegmentedGcm#span})
   * @param length the range's plaintext length
   */
  public DecryptingInputStream(InputStream in, byte[] dataKey, byte[] prefix, long streamPlaintext,
      SegmentedGcm.Span span, long length) {
    this.in = in;
    this.segments = new SegmentedGcm.Segments(dataKey, prefix);
    this.streamPlaintext = streamPlaintext;
    this.lastSegment = SegmentedGcm.segments(streamPlaintext) - 1;
    this.index = span.firstSegment();
    this.skip = span.skip();
    this.left = length;
    plain.limit(0);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (left == 0) {
      return -1;
    }
    if (!plain.hasRemaining()) {
      open();
    }
    int n = (int) Math.min(Math.min(len, plain.remaining()), left);
    plain.get(b, off, n);
    left -= n;
    return n;
  }

  /** Reads, checks and decrypts the next segment. */
  private void open() throws IOException {
    if (index > lastSegment) {
      throw new IOException("the encrypted stream has no segment " + index);
    }
    boolean last = index == lastSegment;
    int stored = last ? (int) (streamPlaintext - index * SegmentedGcm.SEGMENT) + SegmentedGcm.TAG_BYTES
        : SegmentedGcm.STORED_SEGMENT;
    sealed.clear();
    int read = in.readNBytes(sealed.array(), 0, stored);
    if (read < stored) {
      throw new IOException("the encrypted stream ends " + (stored - read) + " bytes into segment " + index);
    }
    sealed.limit(stored);
    plain.clear();
    try {
      segments.decrypt(index, last, sealed, plain);
    } catch (GeneralSecurityException e) {
      throw new IOException("segment " + index + " of the encrypted stream fails its check: its stored bytes were"
          + " changed, or the key is not the object's", e);
    }
    plain.flip();
    plain.position(skip);
    skip = 0;
    index++;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
