package org.tropos.datanode.container;

import java.time.Duration;
import org.tropos.common.util.Clock;

/**
 * Keeps a reader at or below a rate in bytes per second: after each read it waits until the bytes read so far
 * would have taken that long at the rate. Not thread-safe: one per reading thread.
 */
final class ByteRateThrottle {
  private final long bytesPerSecond;
  private final Clock clock;
  private final long startNanos;
  private long bytes;

  ByteRateThrottle(long bytesPerSecond, Clock clock) {
    this.bytesPerSecond = bytesPerSecond;
    this.clock = clock;
    this.startNanos = clock.monotonicNanos();
  }

  /** Counts {@code read} bytes and waits as long as the rate requires. */
  void consumed(long read) throws InterruptedException {
    bytes += read;
    long dueNanos = (long) (bytes * 1e9 / bytesPerSecond);
    long ahead = dueNanos - (clock.monotonicNanos() - startNanos);
    if (ahead > 0) {
      clock.pause(Duration.ofNanos(ahead));
    }
  }
}
