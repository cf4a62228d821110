package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ShortMemoryTest {
  private final ManualClock clock = new ManualClock();
  private final ShortMemory<String, Integer> memory = new ShortMemory<>(clock, 1_000, 2);

  @Test
  void aValueIsKeptForItsTimeThenForgotten() {
    memory.remember("a", 1);
    clock.advance(Duration.ofMillis(999));
    assertEquals(1, memory.get("a"));
    clock.advance(Duration.ofMillis(1));
    assertNull(memory.get("a"));
    assertNull(memory.get("never remembered"));
  }

  @Test
  void atItsBoundEverythingIsForgottenAtOnce() {
    memory.remember("a", 1);
    memory.remember("b", 2);
    memory.remember("c", 3);
    assertNull(memory.get("a"));
    assertNull(memory.get("b"));
    assertEquals(3, memory.get("c"));
  }
}
