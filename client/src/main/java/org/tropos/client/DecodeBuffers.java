package org.tropos.client;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * The buffers a stream's degraded reads fetch and decode stripes in, kept for its next pieces: a direct buffer (what
 * ISA-L decodes) costs several times a heap one to allocate, its memory mapped and zeroed afresh, which made
 * allocation a large part of a degraded read. At most two are kept, as at most two pieces of a stream are read at
 * once (one handed on, one ahead).
 *
 * <p>Thread-safe.
 */
final class DecodeBuffers {
  private static final int KEPT = 2;
  private final Deque<ByteBuffer> free = new ArrayDeque<>();

  /** A buffer of at least {@code bytes}, its limit {@code bytes}: one given back before, or a new one. */
  synchronized ByteBuffer take(int bytes, boolean direct) {
    for (Iterator<ByteBuffer> it = free.iterator(); it.hasNext(); ) {
      ByteBuffer buffer = it.next();
      if (buffer.isDirect() == direct && buffer.capacity() >= bytes) {
        it.remove();
        return buffer.clear().limit(bytes);
      }
    }
    return direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
  }

  /** Gives back a buffer nothing reads or writes any more. */
  synchronized void give(ByteBuffer buffer) {
    if (free.size() == KEPT) {
      free.removeFirst();
    }
    free.addLast(buffer);
  }
}
