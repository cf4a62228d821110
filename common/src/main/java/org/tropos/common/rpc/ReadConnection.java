package org.tropos.common.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The byte stream of a {@link BlockReadClient} over a non-blocking socket: plaintext, or TLS in a secure cluster.
 * Reads never wait; the client waits on its selector when a read finds nothing.
 */
interface ReadConnection extends AutoCloseable {
  /** Moves what has arrived into {@code target}: the bytes moved, 0 when none is there yet, -1 at the end. */
  int read(ByteBuffer target) throws IOException;

  /** Sends all of {@code source}. */
  void writeFully(ByteBuffer source) throws IOException;

  /** Whether the stream is still open and holds no byte yet unread (none sent before the next request). */
  boolean isOpenWithNothingUnread();

  @Override
  void close() throws IOException;

  /** Waits until the socket has bytes to read, or fails after the client's timeout. */
  @FunctionalInterface
  interface Readiness {
    void await() throws IOException;
  }
}
