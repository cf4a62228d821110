package org.tropos.common.util;

import java.time.Duration;
import java.time.Instant;

/** A clock tests move by hand, shared with other modules through the common test-jar. */
public final class ManualClock implements Clock {
  private long millis;
  private Instant wall = Instant.parse("2026-01-01T00:00:00Z");

  public synchronized void advance(Duration d) {
    millis += d.toMillis();
    wall = wall.plus(d);
  }

  @Override
  public synchronized long monotonicMillis() {
    return millis;
  }

  @Override
  public synchronized long monotonicNanos() {
    return millis * 1_000_000;
  }

  @Override
  public synchronized Instant wallTime() {
    return wall;
  }

  @Override
  public void pause(Duration duration) {
    advance(duration);
  }
}
