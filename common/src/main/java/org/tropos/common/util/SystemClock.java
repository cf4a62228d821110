package org.tropos.common.util;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/** The real clock; the one place in main code that reads the system's time. */
public final class SystemClock implements Clock {
  public static final SystemClock INSTANCE = new SystemClock();

  private SystemClock() {
  }

  @Override
  public long monotonicMillis() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
  }

  @Override
  public long monotonicNanos() {
    return System.nanoTime();
  }

  @Override
  public Instant wallTime() {
    return Instant.now();
  }

  @Override
  public void pause(Duration duration) throws InterruptedException {
    TimeUnit.NANOSECONDS.sleep(duration.toNanos());
  }
}
