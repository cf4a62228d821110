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
 * (an HTTP response's outbound buffers), so that a large read is not sent a segment at a time. It lends a reader
 * memory to read stored bytes into ({@link #lend}), and works in memory kept from sink to sink
 * ({@link CipherWorkspace}), given back by {@link #finish}. A changed byte, a segment moved or the stored bytes ending
 * early fail with an {@link UncheckedIOException} (from {@link #accept}) or an {@link IOException} (from
 * {@link #finish}); no byte of a segment that fails its check is handed on.
 *
 * <p>Not thread-safe.
 */
public final class DecryptingSink implements ByteSink {
  private static final int BATCH = 1 << 20;
  private static final int MAX_LENT = 1 << 20;

  private final byte[] dataKey;
  private final ByteSink out;
  private final long streamPlaintext;
  private final long lastSegment;
  private CipherWorkspace workspace = CipherWorkspace.take();
  /**
   * Stored bytes received and not yet decrypted, up to its position: less than a segment between calls. The
   * workspace's, or a larger one of this sink's own once a reader asks to read more at once ({@link #lend}).
   */
  private ByteBuffer stage = workspace.stage;
  private final ByteBuffer plain = workspace.plain;
  /** What {@link #lend} last lent: when it comes back, its bytes are in {@link #stage} already. */
  private ByteBuffer lent;
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
      this.segments = new SegmentedGcm.Segments(dataKey, prefix, workspace.cipher);
    }
  }

  /**
   * Room in the stage for the next stored bytes. A large range is read a piece (1 MiB) at a time, more than the
   * workspace's stage holds: the stage is then made large enough once, so that the reader reads each piece straight
   * into it rather than into a buffer of its own that is copied in here (one pass less over every byte of a large
   * encrypted GET). It grows for up to {@value #MAX_LENT} bytes at once; more are lent only where they fit.
   */
  @Override
  public ByteBuffer lend(int bytes) {
    if (bytes > stage.remaining() && bytes <= MAX_LENT) {
      // With room for what a segment leaves staged between pieces, so that it grows only once.
      stage = ByteBuffer.allocate(stage.position() + SegmentedGcm.STORED_SEGMENT + bytes).put(stage.flip());
    }
    lent = bytes <= stage.remaining() ? stage.slice(stage.position(), bytes) : null;
    return lent;
  }

  @Override
  public void accept(ByteBuffer bytes) {
    if (workspace == null) {
      throw new IllegalStateException("the sink has finished");
    }
    if (bytes == lent) {
      lent = null;
      stage.position(stage.position() + bytes.limit());
      decryptStaged();
      return;
    }
    while (bytes.hasRemaining()) {
      openWhole(bytes);
      if (bytes.hasRemaining()) {
        take(bytes, stage);
        decryptStaged();
      }
    }
  }

  /**
   * Decrypts the whole segments {@code bytes} starts with where they lie, while no segment's start waits in the
   * stage: a reader's piece passes through the stage only with the segments it cuts.
   */
  private void openWhole(ByteBuffer bytes) {
    while (segments != null && stage.position() == 0 && index <= lastSegment
        && bytes.remaining() >= storedBytes(index)) {
      int stored = storedBytes(index);
      open(bytes.slice(bytes.position(), stored));
      bytes.position(bytes.position() + stored);
    }
  }

  /** Fails unless the whole range was decrypted; the sink is done either way. */
  public void finish() throws IOException {
    if (left > 0) {
      throw new IOException("the encrypted stream ends " + left + " plaintext bytes short of its range");
    }
    if (workspace != null) {
      workspace.giveBack();
      workspace = null;
    }
  }

  /** Decrypts every whole segment staged (after the prefix, when it comes first), keeping the rest staged. */
  private void decryptStaged() {
    stage.flip();
    if (segments == null && stage.remaining() >= SegmentedGcm.PREFIX_BYTES) {
      byte[] prefix = new byte[SegmentedGcm.PREFIX_BYTES];
      stage.get(prefix);
      segments = new SegmentedGcm.Segments(dataKey, prefix, workspace.cipher);
    }
    while (segments != null && stage.hasRemaining()) {
      if (index > lastSegment) {
        throw new UncheckedIOException(new IOException("the encrypted stream has bytes beyond its range"));
      }
      int stored = storedBytes(index);
      if (stage.remaining() < stored) {
        break;
      }
      open(stage.slice(stage.position(), stored));
      stage.position(stage.position() + stored);
    }
    stage.compact();
  }

  /** Checks and decrypts segment {@link #index} ({@code sealed}), and hands on its part of the range. */
  private void open(ByteBuffer sealed) {
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
