package org.tropos.common.ec;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The arithmetic under {@link ErasureCoder}: whole cells of one length in, whole cells out, each buffer from its
 * position. Not thread-safe.
 */
interface CellCoder extends AutoCloseable {
  /** Whether the coder works on direct buffers (native code) rather than heap arrays. */
  boolean wantsDirect();

  /** Parity cells of one stripe from its data cells. */
  void encode(ByteBuffer[] data, ByteBuffer[] parity) throws IOException;

  /**
   * Cells of units {@code missing} (0-based, data then parity) from {@code cells}, one entry per unit, exactly
   * {@code data} of them present, the others null.
   */
  void decode(ByteBuffer[] cells, int[] missing, ByteBuffer[] outputs) throws IOException;

  @Override
  void close();
}
