package org.tropos.common.ec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StripeLayoutTest {
  private static final int KIB = 1024;

  @Test
  void namesParseAndPrintAsOzoneWritesThem() {
    EcReplication rs = EcReplication.parse("RS-6-3-1024k");
    assertEquals(new EcReplication(EcCodec.RS, 6, 3, 1024 * KIB), rs);
    assertEquals("rs-6-3-1024k", rs.toString());
    assertEquals(rs, EcReplication.fromProto(rs.toProto()));
    assertEquals(9, rs.units());
    assertEquals("xor-2-1-1024k", EcReplication.parse("xor-2-1-1024k").toString());
  }

  @Test
  void badNamesFailSayingWhatAGoodOneIs() {
    for (String bad : new String[] {"rs-6-3", "rs-6-3-1024", "6-3-1024k", "", "rs-6-3-1024kk"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EcReplication.parse(bad));
      assertTrue(e.getMessage().contains("rs-6-3-1024k"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> EcReplication.parse("lrc-6-3-1024k"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> EcReplication.parse("xor-3-2-1024k"))
        .getMessage().contains("exactly one parity"));
    assertThrows(IllegalArgumentException.class, () -> EcReplication.parse("rs-6-0-1024k"));
    assertThrows(IllegalArgumentException.class, () -> EcReplication.parse("rs-30-3-1024k"));
    assertThrows(IllegalArgumentException.class, () -> EcReplication.parse("rs-6-3-8192k"));
  }

  @Test
  void wholeStripesPutOneCellOnEveryUnit() {
    StripeLayout layout = EcReplication.parse("rs-3-2-1k").layout();
    long twoStripes = 6 * KIB;
    assertEquals(2, layout.stripes(twoStripes));
    for (int unit = 0; unit < 5; unit++) {
      assertEquals(2 * KIB, layout.unitLength(unit, twoStripes), "unit " + unit);
    }
    assertEquals(new StripeLayout.CellPosition(1, 2, KIB + 5, 5), layout.locate(5 * KIB + 5));
    assertEquals(new StripeLayout.CellPosition(0, 0, 0, 0), layout.locate(0));
  }

  @Test
  void aPartialLastStripeFillsDataUnitsFromTheFirstAndParityIsAsLongAsTheFirstCell() {
    StripeLayout layout = EcReplication.parse("rs-3-2-1k").layout();
    long length = 3 * KIB + KIB + 100;
    assertEquals(2, layout.stripes(length));
    assertEquals(KIB, layout.cellLength(1, 0, length));
    assertEquals(100, layout.cellLength(1, 1, length));
    assertEquals(0, layout.cellLength(1, 2, length));
    assertEquals(KIB, layout.cellLength(1, 3, length), "parity covers the longest cell");
    assertEquals(2 * KIB, layout.unitLength(0, length));
    assertEquals(KIB + 100, layout.unitLength(1, length));
    assertEquals(KIB, layout.unitLength(2, length));
    assertEquals(2 * KIB, layout.unitLength(4, length));
    assertEquals(0, layout.cellLength(2, 0, length), "past the group");

    long tiny = 10;
    assertEquals(1, layout.stripes(tiny));
    assertEquals(10, layout.unitLength(0, tiny));
    assertEquals(0, layout.unitLength(1, tiny));
    assertEquals(10, layout.unitLength(3, tiny));
    assertEquals(0, layout.stripes(0));
    assertEquals(0, layout.unitLength(3, 0));
  }

  @Test
  void theDataUnitsHoldExactlyTheGroupsBytes() {
    EcReplication config = EcReplication.parse("rs-6-3-4k");
    StripeLayout layout = config.layout();
    for (long length = 0; length < 3L * config.stripeSize(); length += 997) {
      long sum = 0;
      for (int unit = 0; unit < config.data(); unit++) {
        sum += layout.unitLength(unit, length);
      }
      assertEquals(length, sum, "group of " + length);
    }
  }
}
