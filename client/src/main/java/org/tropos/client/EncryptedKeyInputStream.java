package org.tropos.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.tropos.common.io.ByteSink;
import org.tropos.common.io.HandOffSink;
import org.tropos.common.security.DecryptingInputStream;
import org.tropos.common.security.DecryptingSink;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.KeyInfo;

/**
 * A key encrypted at rest, read as its plaintext: positions and lengths are the plaintext's, and each read
 * decrypts and checks the segments that hold it ({@link DecryptingInputStream}) from the key's stored bytes, so a
 * ranged read fetches only those segments. The stored bytes are one encrypted stream, or one per part for a key
 * joined from the parts of a multipart upload. A changed stored byte fails the read; it never yields wrong data.
 *
 * <p>Not thread-safe: one reader.
 */
final class EncryptedKeyInputStream extends KeyInputStream {
  /** Ranges of at least this many stored bytes are decrypted on a thread of their own as they are read. */
  private static final long HAND_OFF_BYTES = 4 << 20;
  /** What a datanode read hands on at once. */
  private static final int PIECE_BYTES = 1 << 20;
  private final KeyInputStream stored;
  private final KeyInfo key;
  private final byte[] dataKey;
  private final List<Stream> streams;
  /** Decrypts from {@link #position} to the end of its stream; null until the next read after a seek. */
  private DecryptingInputStream decrypting;
  private long position;

  /**
   * One encrypted stream of the key's stored bytes: the plaintext bytes {@code [plainStart, plainStart +
   * plainLength)} of the key, stored from {@code storedStart}. Its prefix is read when first needed.
   */
  static final class Stream {
    private final long plainStart;
    private final long plainLength;
    private final long storedStart;
    private byte[] prefix;

    Stream(long plainStart, long plainLength, long storedStart) {
      this.plainStart = plainStart;
      this.plainLength = plainLength;
      this.storedStart = storedStart;
    }

    boolean holds(long position) {
      return position >= plainStart && position < plainStart + plainLength;
    }
  }

  /**
   * @param stored the key's stored (encrypted) bytes
   * @param key the key as its readers see it (its plaintext size)
   * @param streams the encrypted streams the stored bytes are, in order
   */
  EncryptedKeyInputStream(KeyInputStream stored, KeyInfo key, byte[] dataKey, List<Stream> streams) {
    this.stored = stored;
    this.key = key;
    this.dataKey = dataKey.clone();
    this.streams = streams;
  }

  @Override
  public long length() {
    return key.getSize();
  }

  @Override
  public KeyInfo key() {
    return key;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public void seek(long offset) throws IOException {
    if (offset < 0 || offset > length()) {
      throw new IOException("cannot seek to " + offset + " in " + key.getName() + " of " + length() + " bytes");
    }
    if (offset != position) {
      position = offset;
      decrypting = null;
    }
  }

  @Override
  public void unbuffer() {
    decrypting = null;
    stored.unbuffer();
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
    if (position >= length()) {
      return -1;
    }
    int n;
    while ((n = decrypting().read(b, off, len)) < 0) {
      decrypting = null; // the end of one part's stream: the next part's starts here
    }
    position += n;
    return n;
  }

  /**
   * Streams the range's stored segments from the datanodes (as the stored stream hands them on, without
   * buffering) and hands each segment's plaintext to {@code sink} once its tag checks ({@link DecryptingSink}).
   */
  @Override
  public void transferTo(long length, ByteSink sink) throws IOException {
    if (length < 0 || length > length() - position) {
      throw new IOException("cannot read " + length + " bytes at " + position + " of " + key.getName() + " ("
          + length() + " bytes)");
    }
    checkDataKey();
    decrypting = null;
    long end = position + length;
    while (position < end) {
      Stream stream = streamAt(position);
      long from = position - stream.plainStart;
      long n = Math.min(end - position, stream.plainLength - from);
      SegmentedGcm.Span span = SegmentedGcm.span(stream.plainLength, from, n);
      // A range from the stream's first segment reads its prefix on the way; another reads it first.
      boolean prefixFirst = stream.prefix == null && span.firstSegment() == 0;
      long storedFrom = stream.storedStart + (prefixFirst ? 0 : span.storedFrom());
      DecryptingSink decrypting = new DecryptingSink(dataKey, prefixFirst ? null : prefix(stream),
          stream.plainLength, span, n, sink);
      stored.seek(storedFrom);
      long storedBytes = stream.storedStart + span.storedTo() - storedFrom;
      try {
        if (storedBytes < HAND_OFF_BYTES) {
          stored.transferTo(storedBytes, decrypting);
        } else {
          handOff(storedBytes, decrypting);
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      decrypting.finish();
      position += n;
    }
  }

  /**
   * Reads {@code storedBytes} from the stored stream on this thread and decrypts them on another
   * ({@link HandOffSink}): the next piece is read (from a datanode: received, TLS-decrypted, checked) while this one
   * is decrypted.
   */
  private void handOff(long storedBytes, DecryptingSink decrypting) throws IOException {
    try (HandOffSink ahead = new HandOffSink(decrypting, PIECE_BYTES)) {
      stored.transferTo(storedBytes, ahead);
      ahead.finish();
    }
  }

  @Override
  public void close() throws IOException {
    stored.close();
  }

  /**
   * The decryption from {@link #position} to the end of the stream holding it: the segment holding the position
   * located, and the stored bytes read from there.
   */
  private DecryptingInputStream decrypting() throws IOException {
    if (decrypting == null) {
      checkDataKey();
      Stream stream = streamAt(position);
      long from = position - stream.plainStart;
      long left = stream.plainLength - from;
      SegmentedGcm.Span span = SegmentedGcm.span(stream.plainLength, from, left);
      byte[] prefix = prefix(stream);
      stored.seek(stream.storedStart + span.storedFrom());
      // Never closed itself: the stored stream is this stream's to close.
      decrypting = new DecryptingInputStream(stored, dataKey, prefix, stream.plainLength, span, left);
    }
    return decrypting;
  }

  private void checkDataKey() throws IOException {
    if (dataKey.length == 0) {
      throw new IOException(key.getName() + " is encrypted, and its lookup gave no data key to read it with");
    }
  }

  private Stream streamAt(long at) throws IOException {
    for (Stream stream : streams) {
      if (stream.holds(at)) {
        return stream;
      }
    }
    throw new IOException(key.getName() + " has no encrypted stream holding byte " + at);
  }

  /** The random prefix {@code stream} starts with, read (alone) when first needed. */
  private byte[] prefix(Stream stream) throws IOException {
    if (stream.prefix == null) {
      ByteBuffer prefix = ByteBuffer.allocate(SegmentedGcm.PREFIX_BYTES);
      stored.seek(stream.storedStart);
      stored.transferTo(SegmentedGcm.PREFIX_BYTES, prefix::put);
      stream.prefix = prefix.array();
    }
    return stream.prefix;
  }
}
