package org.tropos.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writes a stream of bytes as replicated blocks, without a key ({@link BlockClient#newWriter}): what
 * {@link #finish} returns is the only record of where the bytes are. Nothing acknowledged by {@link #finish} is
 * lost; a write that cannot be completed fails.
 *
 * <p>Not thread-safe: one writer.
 */
public interface BlockWriter extends AutoCloseable {
  /** Buffers and sends {@code data}, all of it (its position moves to its limit). */
  void write(ByteBuffer data) throws IOException;

  /**
   * Commits everything written on every replica (or, after a wait, a majority) and returns the blocks that hold
   * it, in order. Writing may go on afterwards: it starts a new block, and the next finish returns every block so
   * far again.
   */
  List<BlockLocation> finish() throws IOException;

  /** Releases the writer; what was not finished is not committed. */
  @Override
  void close();
}
