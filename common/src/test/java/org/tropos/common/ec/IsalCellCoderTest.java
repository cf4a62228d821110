package org.tropos.common.ec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.hadoop.io.erasurecode.ErasureCoderOptions;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawDecoder;
import org.apache.hadoop.io.erasurecode.rawcoder.RSRawEncoder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ISA-L against Hadoop's pure Java Reed-Solomon: the same parity, and each rebuilds what the other wrote. */
class IsalCellCoderTest {
  /** Not a multiple of ISA-L's vector width, so its tail code runs too. */
  private static final int CELL = 4096 + 13;

  @BeforeAll
  static void isaL() {
    assumeTrue(IsaL.available(), () -> "ISA-L not loaded here: " + IsaL.UNAVAILABLE.orElseThrow());
  }

  @Test
  void reedSolomonCodersRunOnIsaLWhereItLoads() {
    try (ErasureCoder coder = new ErasureCoder(EcReplication.parse("rs-6-3-1024k"))) {
      assertTrue(coder.wantsDirect());
    }
    try (ErasureCoder coder = new ErasureCoder(EcReplication.parse("xor-2-1-1024k"))) {
      assertTrue(!coder.wantsDirect(), "XOR stays on Hadoop's coder");
    }
  }

  @ParameterizedTest
  @CsvSource({"3,2", "6,3", "10,4", "2,1"})
  void sameParityAndEveryLossRebuiltFromTheOthersParity(int data, int parity) throws IOException {
    ErasureCoderOptions options = new ErasureCoderOptions(data, parity);
    HadoopCellCoder java = new HadoopCellCoder(new RSRawEncoder(options), new RSRawDecoder(options));
    try (IsalCellCoder isal = new IsalCellCoder(data, parity)) {
      Random random = new Random(data * 31 + parity);
      byte[][] units = new byte[data + parity][CELL];
      for (int unit = 0; unit < data; unit++) {
        random.nextBytes(units[unit]);
      }
      ByteBuffer[] isalParity = direct(parity);
      isal.encode(cells(units, 0, data, true), isalParity);
      ByteBuffer[] javaParity = heap(parity);
      java.encode(cells(units, 0, data, false), javaParity);
      for (int k = 0; k < parity; k++) {
        assertEquals(javaParity[k].rewind(), isalParity[k].rewind(), "parity unit " + (data + k));
        isalParity[k].get(units[data + k]);
      }
      for (int mask = 1; mask < 1 << (data + parity); mask++) {
        if (Integer.bitCount(mask) <= parity) {
          assertRebuilt(isal, units, mask, data);
        }
      }
    } finally {
      java.close();
    }
  }

  /** Loses the units in {@code mask}, rebuilds them from the first {@code data} others. */
  private static void assertRebuilt(IsalCellCoder isal, byte[][] units, int mask, int data) throws IOException {
    int[] missing = new int[Integer.bitCount(mask)];
    ByteBuffer[] given = new ByteBuffer[units.length];
    int present = 0;
    for (int unit = 0, m = 0; unit < units.length; unit++) {
      if ((mask & 1 << unit) != 0) {
        missing[m++] = unit;
      } else if (present < data) {
        given[unit] = ByteBuffer.allocateDirect(CELL).put(units[unit]).flip();
        present++;
      }
    }
    ByteBuffer[] outputs = direct(missing.length);
    isal.decode(given, missing, outputs);
    for (int m = 0; m < missing.length; m++) {
      assertEquals(ByteBuffer.wrap(units[missing[m]]), outputs[m].rewind(), "unit " + missing[m] + " of mask "
          + Integer.toBinaryString(mask));
    }
  }

  private static ByteBuffer[] cells(byte[][] units, int from, int to, boolean direct) {
    ByteBuffer[] cells = new ByteBuffer[to - from];
    for (int k = 0; k < cells.length; k++) {
      cells[k] = direct ? ByteBuffer.allocateDirect(CELL).put(units[from + k]).flip()
          : ByteBuffer.wrap(units[from + k]);
    }
    return cells;
  }

  private static ByteBuffer[] direct(int count) {
    ByteBuffer[] buffers = new ByteBuffer[count];
    for (int k = 0; k < count; k++) {
      buffers[k] = ByteBuffer.allocateDirect(CELL);
    }
    return buffers;
  }

  private static ByteBuffer[] heap(int count) {
    ByteBuffer[] buffers = new ByteBuffer[count];
    for (int k = 0; k < count; k++) {
      buffers[k] = ByteBuffer.allocate(CELL);
    }
    return buffers;
  }
}
