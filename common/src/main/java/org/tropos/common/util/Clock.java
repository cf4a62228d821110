package org.tropos.common.util;

import java.time.Duration;
import java.time.Instant;

/** The source of time for main code, injected so tests control it (STYLE.md 6). */
public interface Clock {
  /** Milliseconds on a monotonic scale with an arbitrary origin: for ages and timeouts. */
  long monotonicMillis();

  /** Nanoseconds on a monotonic scale with an arbitrary origin: for measuring short intervals. */
  long monotonicNanos();

  /** Wall-clock time: for timestamps shown to people or stored. */
  Instant wallTime();

  /** Waits this long (a retry's back-off); a test clock just moves on. */
  void pause(Duration duration) throws InterruptedException;
}
