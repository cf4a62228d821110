package org.tropos.common.metrics;

import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Latency timers with one fixed set of histogram buckets, from 0.5 ms to 30 s, so that Prometheus can take
 * quantiles over any set of daemons ({@code histogram_quantile}) at a cost of 15 series per timer.
 */
public final class Latency {
  private static final Duration[] BUCKETS = {Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
      Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
      Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
      Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

  private Latency() {
  }

  /** A timer named {@code name} (Prometheus: {@code name_seconds_bucket}, {@code _count}, {@code _sum}). */
  public static Timer.Builder timer(String name, String description) {
    return Timer.builder(name).description(description).serviceLevelObjectives(BUCKETS);
  }
}
