package org.tropos.scm.simulation;

import java.time.Duration;
import java.time.Instant;
import org.tropos.common.util.Clock;

/** The simulation's time: it moves only when the simulation says so, so a run is the same every time. */
final class SimulatedClock implements Clock {
  /** A fixed origin: stored timestamps (pipelines' creation) are the same in every run of a seed. */
  private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

  private long millis;

  void advance(long byMillis) {
    millis += byMillis;
  }

  long millis() {
    return millis;
  }

  @Override
  public long monotonicMillis() {
    return millis;
  }

  @Override
  public long monotonicNanos() {
    return millis * 1_000_000;
  }

  @Override
  public Instant wallTime() {
    return ORIGIN.plusMillis(millis);
  }

  @Override
  public void pause(Duration duration) {
    millis += duration.toMillis();
  }
}
