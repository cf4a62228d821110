package org.tropos.common.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import org.tropos.common.io.ByteSink;

/**
 * Decrypts a range of an encrypted stream's plaintext ({@link SegmentedGcm}, format 1) as its stored bytes arrive,
 * in whatever pieces they come, and hands the plaintext on once its segments' tags check: the push-side twin of
 * {@link DecryptingInputStream}, for readers that stream (a datanode's read of a block range) rather than pull.
 * Plaintext is handed on in pieces of up to {@value #BATCH} bytes, in memory the receiving sink lends when it does
 * (an HTTP response's outbound buffers), so that a large read is not sent a segment at a time. A
 * changed byte, a segment moved or the stored bytes ending early fail with an {@link UncheckedIOException} (from
 * {@link #accept}) or an {@link IOException} (from {@link #finish}); no byte of a segment that fails its check is
 * handed on.
 *
 * <p>Not thread-safe.
 */
public final class DecryptingSink implements ByteSink {
  private static final int BATCH = 1 << 20;

  private final byte[] dataKey;
  private final ByteSink out;
  private final long streamPlaintext;
  private final long lastSegment;
  private final ByteBuffer prefix = ByteBuffer.allocate(SegmentedGcm.PREFIX_BYTES);
  private final ByteBuffer sealed = ByteBuffer.allocate(SegmentedGcm.STORED_SEGMENT);
  private final ByteBuffer plain = ByteBuffer.allocate(SegmentedGcm.SEGMENT);
  private SegmentedGcm.Segments segments;
  /** Where plaintext gathers before it is handed on: lent by {@link #out}, or this sink's own. */
  private ByteBuffer batch;
  private ByteBuffer ownBatch;
  private long index;
  private int skip;
  private long left;

  /**
   * @param prefix the stream's prefix; null when the bytes to come start with it (the stream's own first bytes)
   * @param streamPlaintext the whole stream's plaintext length
   * @param span where the range is ({@link SegmentedGcm#span}): the bytes to come are its stored bytes, after the
   *     prefix when that comes first
   * @param length the range's plaintext length
   * @param out what receives the plaintext
   */
  public DecryptingSink(byte[] dataKey, byte[] prefix, long streamPlaintext, SegmentedGcm.Span span, long length,
      ByteSink out) {
    this.dataKey = dataKey;
    this.out = out;
    this.streamPlaintext = streamPlaintext;
    this.lastSegment = SegmentedGcm.segments(streamPlaintext) - 1;
    this.index = span.firstSegment();
    this.skip = span.skip();
    this.left = length;
    if (prefix != null) {
      this.segments = new SegmentedGcm.Segments(dataKey, prefix);
    }
  }

  @Override
  public void accept(ByteBuffer bytes) {
    while (bytes.hasRemaining()) {
      if (segments == null) {
        take(bytes, prefix);
        if (!prefix.hasRemaining()) {
          segments = new SegmentedGcm.Segments(dataKey, prefix.array());
        }
        continue;
      }
      if (index > lastSegment) {
        throw new UncheckedIOException(new IOException("the encrypted stream has bytes beyond its range"));
      }
      sealed.limit(storedBytes(index));
      take(bytes, sealed);
      if (!sealed.hasRemaining()) {
        open();
      }
    }
  }

  /** Fails unless the whole range was decrypted. */
  public void finish() throws IOException {
    if (left > 0) {
      throw new IOException("the encrypted stream ends " + left + " plaintext bytes short of its range");
    }
  }

  /** Checks and decrypts the segment gathered, and hands on its part of the range. */
  private void open() {
    sealed.flip();
    plain.clear();
    try {
      segments.decrypt(index, index == lastSegment, sealed, plain);
    } catch (GeneralSecurityException e) {
      throw new UncheckedIOException(new IOException("segment " + index + " of the encrypted stream fails its check:"
          + " its stored bytes were changed, or the key is not the object's", e));
    }
    plain.flip().position(skip);
    if (plain.remaining() > left) {
      plain.limit(plain.position() + (int) left);
    }
    skip = 0;
    index++;
    sealed.clear();
    while (plain.hasRemaining()) {
      if (batch == null) {
        startBatch();
      }
      int n = plain.remaining();
      take(plain, batch);
      left -= n - plain.remaining();
      if (!batch.hasRemaining() || left == 0) {
        batch.flip();
        ByteBuffer full = batch;
        batch = null;
        out.accept(full);
      }
    }
  }

  /** A buffer for the next plaintext: lent by the receiving sink when it lends, else this sink's own. */
  private void startBatch() {
    int size = (int) Math.min(BATCH, left);
    batch = out.lend(size);
    if (batch == null) {
      if (ownBatch == null || ownBatch.capacity() < size) {
        ownBatch = ByteBuffer.allocate(size);
      }
      batch = ownBatch.clear().limit(size);
    }
  }

  private int storedBytes(long segment) {
    return segment == lastSegment ? (int) (streamPlaintext - segment * SegmentedGcm.SEGMENT) + SegmentedGcm.TAG_BYTES
        : SegmentedGcm.STORED_SEGMENT;
  }

  private static void take(ByteBuffer from, ByteBuffer to) {
    int n = Math.min(from.remaining(), to.remaining());
    to.put(from.slice(from.position(), n));
    from.position(from.position() + n);
  }
}
