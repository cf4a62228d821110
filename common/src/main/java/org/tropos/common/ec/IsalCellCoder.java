package org.tropos.common.ec;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reed-Solomon on ISA-L, on direct buffers: the same matrix as Hadoop's "rs" coder (identity over Cauchy rows), so
 * either reads what the other wrote. A decode inverts the rows of the cells given and keeps the resulting tables
 * per loss pattern, as Hadoop's coders do.
 */
final class IsalCellCoder implements CellCoder {
  /** Loss patterns whose decode tables are kept; rs-6-3 has a few hundred, a reader meets a handful. */
  private static final int KEPT_PATTERNS = 64;

  private final int data;
  private final int parity;
  /** {@code data + parity} rows of {@code data} coefficients. */
  private final byte[] matrix;
  private final byte[] encodeTables;
  private final Map<String, byte[]> decodeTables = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
      return size() > KEPT_PATTERNS;
    }
  };

  IsalCellCoder(int data, int parity) {
    if (!IsaL.available()) {
      throw new IllegalStateException("ISA-L is not loaded: " + IsaL.UNAVAILABLE.orElseThrow());
    }
    this.data = data;
    this.parity = parity;
    this.matrix = new byte[(data + parity) * data];
    IsaL.genCauchyMatrix(matrix, data + parity, data);
    this.encodeTables = tables(Arrays.copyOfRange(matrix, data * data, matrix.length), parity);
  }

  @Override
  public boolean wantsDirect() {
    return true;
  }

  @Override
  public void encode(ByteBuffer[] cells, ByteBuffer[] parityCells) {
    IsaL.encodeData(cells[0].remaining(), data, parity, encodeTables, addresses(cells), addresses(parityCells));
  }

  @Override
  public void decode(ByteBuffer[] cells, int[] missing, ByteBuffer[] outputs) {
    int[] given = new int[data];
    ByteBuffer[] sources = new ByteBuffer[data];
    int count = 0;
    for (int unit = 0; unit < cells.length; unit++) {
      if (cells[unit] != null) {
        if (count == data) {
          throw new IllegalArgumentException("more than " + data + " cells given");
        }
        given[count] = unit;
        sources[count++] = cells[unit];
      }
    }
    if (count < data) {
      throw new IllegalArgumentException(data + " cells needed, " + count + " given");
    }
    byte[] tables = decodeTables.computeIfAbsent(Arrays.toString(given) + Arrays.toString(missing),
        pattern -> decodeTables(given, missing));
    IsaL.encodeData(sources[0].remaining(), data, missing.length, tables, addresses(sources), addresses(outputs));
  }

  /**
   * The rows that turn the {@code given} units into the {@code missing} ones: with B the matrix's rows of the given
   * units, a data unit's row of B's inverse, a parity unit's matrix row times that inverse.
   */
  private byte[] decodeTables(int[] given, int[] missing) {
    byte[] rows = new byte[data * data];
    for (int r = 0; r < data; r++) {
      System.arraycopy(matrix, given[r] * data, rows, r * data, data);
    }
    byte[] inverse = new byte[data * data];
    if (IsaL.invertMatrix(rows, inverse, data) != 0) {
      throw new IllegalStateException("units " + Arrays.toString(given) + " do not determine the others");
    }
    byte[] decode = new byte[missing.length * data];
    for (int m = 0; m < missing.length; m++) {
      int unit = missing[m];
      if (unit < data) {
        System.arraycopy(inverse, unit * data, decode, m * data, data);
        continue;
      }
      for (int column = 0; column < data; column++) {
        byte sum = 0;
        for (int k = 0; k < data; k++) {
          sum ^= IsaL.mul(matrix[unit * data + k], inverse[k * data + column]);
        }
        decode[m * data + column] = sum;
      }
    }
    return tables(decode, missing.length);
  }

  private byte[] tables(byte[] coefficients, int rows) {
    byte[] tables = new byte[32 * data * rows];
    IsaL.initTables(data, rows, coefficients, tables);
    return tables;
  }

  private static long[] addresses(ByteBuffer[] cells) {
    long[] addresses = new long[cells.length];
    for (int k = 0; k < cells.length; k++) {
      if (!cells[k].isDirect()) {
        throw new IllegalArgumentException("ISA-L codes direct buffers only");
      }
      addresses[k] = IsaL.address(cells[k]);
    }
    return addresses;
  }

  @Override
  public void close() {
    // Nothing native is held: the tables are heap arrays, copied to ISA-L on each call.
  }
}
