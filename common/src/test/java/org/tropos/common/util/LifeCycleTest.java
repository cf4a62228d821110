package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LifeCycleTest {
  @Test
  void runsThroughItsStatesOnce() {
    LifeCycle lc = new LifeCycle("test");
    lc.startBegins();
    lc.startEnds();
    lc.assertRunning();
    assertTrue(lc.closeBegins());
    assertFalse(lc.closeBegins(), "close is idempotent");
    lc.closeEnds();
    assertEquals(LifeCycle.State.CLOSED, lc.state());
    assertFalse(lc.closeBegins());
  }

  @Test
  void doubleStartAndUseAfterCloseFail() {
    LifeCycle lc = new LifeCycle("test");
    lc.startBegins();
    assertThrows(IllegalStateException.class, lc::startBegins);
    lc.closeBegins();
    assertThrows(IllegalStateException.class, lc::assertRunning);
  }

  @Test
  void preconditionsFormatTheirMessage() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Preconditions.assertTrue(false, "{} has {} items", "box", 3));
    assertEquals("box has 3 items", e.getMessage());
  }
}
