package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HeapPressureTest {
  private static final long MAX = 1000;

  @Test
  void pressureStartsAtTheHighMarkAndEndsBelowTheLowOne() {
    HeapPressure pressure = new HeapPressure();
    pressure.afterCollection(899, MAX);
    assertFalse(pressure.high());
    pressure.afterCollection(900, MAX);
    assertTrue(pressure.high());
    pressure.afterCollection(800, MAX);
    assertTrue(pressure.high(), "between the marks it stays as it was");
    pressure.afterCollection(799, MAX);
    assertFalse(pressure.high());
    assertTrue(pressure.reason().contains("79 %"), pressure.reason());
  }
}
