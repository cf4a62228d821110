package org.tropos.common.simulation;

import java.time.Duration;
import java.time.Instant;
import org.tropos.common.util.Clock;

/**
 * A simulation's time (issue 44): it moves only when the simulation moves it, so a seed's run is the same every
 * time. A pause (a retry's back-off) returns at once without moving it: how long a caller backs off is drawn from
 * a random source the simulation does not own, and must not change what the run stores.
 *
 * <p>Not thread-safe: a simulation runs one thing at a time.
 */
public final class SimulatedClock implements Clock {
  /** A fixed origin: stored timestamps are the same in every run of a seed. */
  private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

  private long millis;

  public void advance(long byMillis) {
    millis += byMillis;
  }

  /** Simulated milliseconds since the run started. */
  public long millis() {
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
    // Returns at once; see the class comment.
  }
}
