package org.tropos.common.util;

import java.util.function.Predicate;

/** Questions about a failure and the failures that caused it. */
public final class Causes {
  private Causes() {
  }

  /** Whether {@code failure}, or any failure in its chain of causes, matches {@code test}. */
  public static boolean any(Throwable failure, Predicate<Throwable> test) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (test.test(t)) {
        return true;
      }
    }
    return false;
  }
}
