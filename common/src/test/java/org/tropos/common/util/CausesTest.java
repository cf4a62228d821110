package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class CausesTest {
  @Test
  void aMatchAnywhereInTheChainCounts() {
    Exception failure = new IllegalStateException("outer", new UncheckedIOException(new IOException("disk")));
    assertTrue(Causes.any(failure, IllegalStateException.class::isInstance));
    assertTrue(Causes.any(failure, t -> "disk".equals(t.getMessage())));
    assertFalse(Causes.any(failure, ArithmeticException.class::isInstance));
    assertFalse(Causes.any(null, t -> true));
  }
}
