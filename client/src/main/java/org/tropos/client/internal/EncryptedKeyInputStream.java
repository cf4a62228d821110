package org.tropos.client.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.tropos.client.KeyInputStream;
import org.tropos.common.io.ByteSink;
import org.tropos.common.security.DecryptingInputStream;
import org.tropos.common.security.SegmentedGcm;
import org.tropos.proto.om.KeyInfo;

/**
 * A key encrypted at rest, read as its plaintext: positions and lengths are the plaintext's, and each read
 * decrypts and checks the segments that hold it ({@link DecryptingInputStream}) from the key's stored stream, so a
 * ranged read fetches only those segments. A changed stored byte fails the read; it never yields wrong data.
 *
 * <p>Not thread-safe: one reader.
 */
public final class EncryptedKeyInputStream extends KeyInputStream {
  private static final int CHUNK = SegmentedGcm.SEGMENT;

  private final KeyInputStream stored;
  private final KeyInfo key;
  private final byte[] dataKey;
  private byte[] prefix;
  /** Decrypts from {@link #position} on; null until the next read after a seek. */
  private DecryptingInputStream decrypting;
  private byte[] chunk;
  private long position;

  /**
   * @param stored the key's stored (encrypted) stream
   * @param key the key as its readers see it (its plaintext size)
   */
  public EncryptedKeyInputStream(KeyInputStream stored, KeyInfo key, byte[] dataKey) {
    this.stored = stored;
    this.key = key;
    this.dataKey = dataKey.clone();
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
    chunk = null;
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
    int n = decrypting().read(b, off, len);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public void transferTo(long length, ByteSink sink) throws IOException {
    if (length < 0 || length > length() - position) {
      throw new IOException("cannot read " + length + " bytes at " + position + " of " + key.getName() + " ("
          + length() + " bytes)");
    }
    if (chunk == null) {
      chunk = new byte[CHUNK];
    }
    for (long left = length; left > 0; ) {
      int n = read(chunk, 0, (int) Math.min(left, chunk.length));
      if (n < 0) {
        throw new IOException(key.getName() + " ends " + left + " bytes early");
      }
      sink.accept(ByteBuffer.wrap(chunk, 0, n));
      left -= n;
    }
  }

  @Override
  public void close() throws IOException {
    stored.close();
  }

  /** The decryption of the rest of the key from {@link #position}: its first segment located and the stream there. */
  private DecryptingInputStream decrypting() throws IOException {
    if (decrypting == null) {
      if (dataKey.length == 0) {
        throw new IOException(key.getName() + " is encrypted, and its lookup gave no data key to read it with");
      }
      if (prefix == null) {
        stored.seek(0);
        prefix = stored.readNBytes(SegmentedGcm.PREFIX_BYTES);
        if (prefix.length < SegmentedGcm.PREFIX_BYTES) {
          throw new IOException(key.getName() + " is too short to be an encrypted stream");
        }
      }
      SegmentedGcm.Span span = SegmentedGcm.span(length(), position, length() - position);
      stored.seek(span.storedFrom());
      // Never closed itself: the stored stream is this stream's to close.
      decrypting = new DecryptingInputStream(stored, dataKey, prefix, length(), span, length() - position);
    }
    return decrypting;
  }
}
