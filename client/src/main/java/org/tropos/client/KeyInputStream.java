package org.tropos.client;

import java.io.IOException;
import java.io.InputStream;
import org.tropos.common.io.ByteSink;
import org.tropos.proto.om.KeyInfo;

/**
 * One version of a key being read ({@link TroposClient#readKey}): every byte it returns was verified against its
 * checksum. Beyond an {@link InputStream} it can {@link #seek}, drop its buffer ({@link #unbuffer}) and hand a range
 * on without copying it ({@link #transferTo(long, ByteSink)}).
 *
 * <p>Not thread-safe: one reader.
 */
public abstract class KeyInputStream extends InputStream {
  protected KeyInputStream() {
  }

  /** The key's size in bytes. */
  public abstract long length();

  /** The key as it was looked up: the stream reads exactly this version. */
  public abstract KeyInfo key();

  /** Where the next read starts. */
  public abstract long position();

  /** Moves to {@code offset} (0 to the length); the next read starts there. */
  public abstract void seek(long offset) throws IOException;

  /** Drops the read buffer (an idle stream kept open holds no memory); the next read allocates it again. */
  public abstract void unbuffer();

  /**
   * Hands the next {@code length} bytes, every one verified, to {@code sink} as they arrive, without buffering them
   * in the stream. A buffer of the stream's is valid only during the call; one the sink lends
   * ({@link ByteSink#lend}) is filled and handed back.
   */
  public abstract void transferTo(long length, ByteSink sink) throws IOException;
}
