package org.tropos.common.ec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Encodes the parity cells of a stripe and rebuilds missing cells from any {@code data} of its cells, with the
 * codec's coder ({@link EcCodec}). Cells of a partial stripe may be shorter than the stripe's first cell: they are
 * coded as if zero-padded, without the caller padding them; cells in the other kind of buffer than the coder works
 * on are copied. Not thread-safe (decoders keep their matrix per loss pattern): one per writer, reader or
 * reconstruction. Close it.
 */
public final class ErasureCoder implements AutoCloseable {
  private final EcReplication config;
  private final CellCoder coder;
  /** Zero-padded copies of cells handed in short or in the other kind of buffer, one per unit. */
  private final ByteBuffer[] scratch;

  public ErasureCoder(EcReplication config) {
    this.config = config;
    this.coder = config.codec().newCoder(config.data(), config.parity());
    this.scratch = new ByteBuffer[config.units() + config.parity()];
  }

  public EcReplication config() {
    return config;
  }

  /** Whether cells in direct buffers are coded without a copy (else heap ones are). */
  public boolean wantsDirect() {
    return coder.wantsDirect();
  }

  /**
   * Computes a stripe's parity cells from its data cells (from each buffer's position to its limit, the first the
   * longest, later ones shorter or empty in a partial stripe) into {@code parity}, each from its position, as
   * many bytes as the first data cell. No buffer's position moves.
   */
  public void encode(ByteBuffer[] dataCells, ByteBuffer[] parity) {
    checkCount(dataCells.length, config.data(), "data cells");
    checkCount(parity.length, config.parity(), "parity cells");
    int cellLength = dataCells[0].remaining();
    ByteBuffer[] inputs = new ByteBuffer[config.data()];
    for (int unit = 0; unit < inputs.length; unit++) {
      inputs[unit] = padded(dataCells[unit], cellLength, unit);
    }
    ByteBuffer[] outputs = outputs(parity, cellLength);
    try {
      coder.encode(inputs, outputs);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    copyBack(outputs, parity, cellLength);
  }

  /**
   * Rebuilds the cells of units {@code missing} (0-based, data then parity) of a stripe whose first data cell is
   * {@code cellLength} bytes. {@code cells} has one entry per unit: a present cell (position to limit, at most
   * {@code cellLength}; a shorter one is a partial stripe's) or null for a unit missing or not read. At least
   * {@code data} must be present. Each rebuilt cell goes to the matching {@code outputs} buffer from its position:
   * {@code cellLength} bytes, of which a partial stripe's data cell keeps only its own length.
   */
  public void decode(ByteBuffer[] cells, int[] missing, ByteBuffer[] outputs, int cellLength) {
    checkCount(cells.length, config.units(), "cells");
    checkCount(outputs.length, missing.length, "outputs");
    if (missing.length > config.parity()) {
      throw new IllegalArgumentException(config + " rebuilds at most " + config.parity() + " cells of a stripe");
    }
    for (int unit : missing) {
      if (cells[unit] != null) {
        throw new IllegalArgumentException("unit " + unit + " is both given and asked for");
      }
    }
    int present = 0;
    ByteBuffer[] inputs = new ByteBuffer[cells.length];
    for (int unit = 0; unit < cells.length; unit++) {
      if (cells[unit] != null && present < config.data()) {
        inputs[unit] = padded(cells[unit], cellLength, unit);
        present++;
      }
    }
    if (present < config.data()) {
      throw new IllegalArgumentException(config + " needs " + config.data() + " cells of a stripe to rebuild the"
          + " others, " + present + " given");
    }
    ByteBuffer[] rebuilt = outputs(outputs, cellLength);
    try {
      coder.decode(inputs, missing, rebuilt);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    copyBack(rebuilt, outputs, cellLength);
  }

  /** The cell as the coder takes it: itself when whole and of the right kind, else a zero-padded copy. */
  private ByteBuffer padded(ByteBuffer cell, int cellLength, int slot) {
    if (cell.remaining() > cellLength) {
      throw new IllegalArgumentException("a cell of " + cell.remaining() + " bytes in a stripe of " + cellLength
          + "-byte cells");
    }
    if (cell.remaining() == cellLength && cell.isDirect() == wantsDirect() && (cell.isDirect() || cell.hasArray())) {
      return cell.duplicate();
    }
    ByteBuffer copy = scratch(slot, cellLength);
    copy.put(cell.duplicate());
    while (copy.hasRemaining()) {
      copy.put((byte) 0);
    }
    return copy.flip();
  }

  /**
   * Where the coder writes each cell: the caller's buffer when of the right kind, else scratch, copied back by
   * {@link #copyBack}.
   */
  private ByteBuffer[] outputs(ByteBuffer[] targets, int cellLength) {
    ByteBuffer[] outputs = new ByteBuffer[targets.length];
    for (int k = 0; k < targets.length; k++) {
      ByteBuffer target = targets[k];
      if (target.remaining() < cellLength) {
        throw new IllegalArgumentException("an output of " + target.remaining() + " bytes for a " + cellLength
            + "-byte cell");
      }
      outputs[k] = target.isDirect() == wantsDirect() && (target.isDirect() || target.hasArray())
          ? target.duplicate().limit(target.position() + cellLength)
          : scratch(config.units() + k, cellLength);
    }
    return outputs;
  }

  private void copyBack(ByteBuffer[] written, ByteBuffer[] targets, int cellLength) {
    for (int k = 0; k < written.length; k++) {
      if (written[k] == scratch[config.units() + k]) {
        targets[k].duplicate().put(written[k].clear().limit(cellLength));
      }
    }
  }

  private ByteBuffer scratch(int slot, int cellLength) {
    ByteBuffer buffer = scratch[slot];
    if (buffer == null || buffer.capacity() < cellLength) {
      buffer = wantsDirect() ? ByteBuffer.allocateDirect(cellLength) : ByteBuffer.allocate(cellLength);
      scratch[slot] = buffer;
    }
    return buffer.clear().limit(cellLength);
  }

  private static void checkCount(int given, int expected, String what) {
    if (given != expected) {
      throw new IllegalArgumentException(expected + " " + what + " expected, " + given + " given");
    }
  }

  @Override
  public void close() {
    coder.close();
  }
}
