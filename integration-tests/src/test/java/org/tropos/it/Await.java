package org.tropos.it;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polls a condition until it holds or a deadline passes; the failure says what was awaited and the last value. */
final class Await {
  private static final long POLL_MS = 50;

  private Await() {
  }

  static <T> void until(String what, Duration timeout, Callable<T> probe, java.util.function.Predicate<T> done)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = probe.call();
    while (!done.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last seen: " + shown(last));
      }
      Thread.sleep(POLL_MS); // what is awaited happens on other threads or processes: polled
      last = probe.call();
    }
  }

  /** A value as a message shows it: arrays by their elements. */
  private static String shown(Object value) {
    String inList = java.util.Arrays.deepToString(new Object[] {value});
    return inList.substring(1, inList.length() - 1);
  }
}
