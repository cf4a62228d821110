package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SmallKeyBlocksTest {
  @Test
  void onlyKeysOfAKnownSizeUpToTheLargestAreSmall() {
    assertFalse(SmallKeyBlocks.isSmall(0), "size unknown");
    assertTrue(SmallKeyBlocks.isSmall(1));
    assertTrue(SmallKeyBlocks.isSmall(SmallKeyBlocks.LARGEST));
    assertFalse(SmallKeyBlocks.isSmall(SmallKeyBlocks.LARGEST + 1));
  }

  @Test
  void sizesAreRoundedUpToAPowerOfTwoFrom64Kb() {
    assertEquals(64 << 10, SmallKeyBlocks.sizeClass(1));
    assertEquals(128 << 10, SmallKeyBlocks.sizeClass(100 << 10));
    assertEquals(128 << 10, SmallKeyBlocks.sizeClass(128 << 10));
    assertEquals(SmallKeyBlocks.LARGEST, SmallKeyBlocks.sizeClass(SmallKeyBlocks.LARGEST));
  }
}
