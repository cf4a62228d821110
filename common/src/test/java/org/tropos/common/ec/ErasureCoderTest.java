package org.tropos.common.ec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ErasureCoderTest {
  @ParameterizedTest
  @ValueSource(strings = {"rs-3-2-1024k", "rs-6-3-1024k", "xor-2-1-1024k", "rs-10-4-4k", "rs-2-1-1k"})
  void everyLossOfUpToParityUnitsIsRebuiltForWholeAndPartialStripes(String name) {
    EcReplication config = EcReplication.parse(name);
    Random random = new Random(name.hashCode());
    int cell = config.cellSize();
    long[] stripeLengths = {config.stripeSize(), 1, cell - 1, cell + 1, config.stripeSize() - 1,
        (long) cell * (config.data() - 1) + 7};
    try (ErasureCoder coder = new ErasureCoder(config)) {
      for (long stripeLength : stripeLengths) {
        byte[][] units = encodedStripe(coder, random, stripeLength);
        for (int[] lost : lossPatterns(config.units(), config.parity())) {
          assertRebuilt(coder, units, lost, stripeLength);
        }
      }
    }
  }

  @Test
  void directAndHeapBuffersGiveTheSameParity() {
    EcReplication config = EcReplication.parse("rs-3-2-4k");
    byte[][] cells = new byte[3][4096];
    new Random(7).nextBytes(cells[0]);
    new Random(8).nextBytes(cells[1]);
    new Random(9).nextBytes(cells[2]);
    try (ErasureCoder coder = new ErasureCoder(config)) {
      ByteBuffer[] heapParity = {ByteBuffer.allocate(4096), ByteBuffer.allocate(4096)};
      coder.encode(wrap(cells, false), heapParity);
      ByteBuffer[] directParity = {ByteBuffer.allocateDirect(4096), ByteBuffer.allocateDirect(4096)};
      coder.encode(wrap(cells, true), directParity);
      for (int k = 0; k < 2; k++) {
        assertEquals(0, heapParity[k].position(), "the caller's position does not move");
        assertEquals(heapParity[k], directParity[k]);
      }
    }
  }

  @Test
  void aStripeWithFewerThanDataCellsCannotBeRebuilt() {
    EcReplication config = EcReplication.parse("rs-3-2-1k");
    try (ErasureCoder coder = new ErasureCoder(config)) {
      ByteBuffer[] cells = {ByteBuffer.allocate(1024), null, null, ByteBuffer.allocate(1024), null};
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> coder.decode(cells,
          new int[] {1, 2, 4}, new ByteBuffer[] {ByteBuffer.allocate(1024), ByteBuffer.allocate(1024),
              ByteBuffer.allocate(1024)}, 1024));
      assertTrue(e.getMessage().contains("at most 2"), e.getMessage());
      ByteBuffer[] two = {ByteBuffer.allocate(1024), null, null, ByteBuffer.allocate(1024), null};
      e = assertThrows(IllegalArgumentException.class,
          () -> coder.decode(two, new int[] {1}, new ByteBuffer[] {ByteBuffer.allocate(1024)}, 1024));
      assertTrue(e.getMessage().contains("needs 3 cells"), e.getMessage());
    }
  }

  /** The stripe's units (data, then parity), each as long as the unit's cell of a stripe holding stripeLength. */
  private static byte[][] encodedStripe(ErasureCoder coder, Random random, long stripeLength) {
    EcReplication config = coder.config();
    StripeLayout layout = config.layout();
    byte[][] units = new byte[config.units()][];
    for (int unit = 0; unit < config.units(); unit++) {
      units[unit] = new byte[layout.cellLength(0, unit, stripeLength)];
      if (unit < config.data()) {
        random.nextBytes(units[unit]);
      }
    }
    ByteBuffer[] parity = new ByteBuffer[config.parity()];
    for (int k = 0; k < parity.length; k++) {
      parity[k] = ByteBuffer.wrap(units[config.data() + k]);
    }
    coder.encode(wrap(Arrays.copyOf(units, config.data()), false), parity);
    return units;
  }

  private static void assertRebuilt(ErasureCoder coder, byte[][] units, int[] lost, long stripeLength) {
    ByteBuffer[] cells = new ByteBuffer[units.length];
    for (int unit = 0; unit < units.length; unit++) {
      cells[unit] = ByteBuffer.wrap(units[unit]);
    }
    ByteBuffer[] outputs = new ByteBuffer[lost.length];
    for (int k = 0; k < lost.length; k++) {
      cells[lost[k]] = null;
      outputs[k] = ByteBuffer.allocateDirect(units[0].length);
    }
    coder.decode(cells, lost, outputs, units[0].length);
    for (int k = 0; k < lost.length; k++) {
      byte[] rebuilt = new byte[units[lost[k]].length];
      outputs[k].get(rebuilt);
      assertArrayEquals(units[lost[k]], rebuilt, coder.config() + ", stripe of " + stripeLength + " bytes, lost "
          + Arrays.toString(lost) + ": unit " + lost[k]);
    }
  }

  /** Every set of 1 to maxLost units out of units. */
  private static List<int[]> lossPatterns(int units, int maxLost) {
    List<int[]> patterns = new ArrayList<>();
    for (int mask = 1; mask < 1 << units; mask++) {
      if (Integer.bitCount(mask) <= maxLost) {
        int[] lost = new int[Integer.bitCount(mask)];
        for (int unit = 0, k = 0; unit < units; unit++) {
          if ((mask & 1 << unit) != 0) {
            lost[k++] = unit;
          }
        }
        patterns.add(lost);
      }
    }
    return patterns;
  }

  private static ByteBuffer[] wrap(byte[][] cells, boolean direct) {
    ByteBuffer[] buffers = new ByteBuffer[cells.length];
    for (int i = 0; i < cells.length; i++) {
      buffers[i] = direct ? ByteBuffer.allocateDirect(cells[i].length).put(cells[i]).flip() : ByteBuffer.wrap(cells[i]);
    }
    return buffers;
  }
}
