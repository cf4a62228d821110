package org.tropos.tools.bench;

import java.time.Duration;
import java.util.List;
import org.tropos.common.util.Clock;

/**
 * Lets the servers' JIT compilers work off what a warm-up round queued before the next load starts. Under load on
 * two cores a JVM's compiler threads share the CPU with the requests: C2 compiled a gateway's per-request methods
 * two to three minutes into a run and still compiled some 25 methods a second after five, so back-to-back rounds
 * never settled and each measured phase caught some server part-way, as much as a fifth of its CPU then going to
 * the compiler. Idle, the backlog drains in seconds.
 */
final class CompilerBacklog {
  /** A compiler counts as idle when it used at most one 10 ms tick of CPU in a window this long. */
  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final long IDLE_NANOS = 10_000_000L;

  private CompilerBacklog() {
  }

  /**
   * Waits until no side's compiler threads used more than {@value #IDLE_NANOS} ns of CPU in a {@link #WINDOW},
   * for at most {@code max} (sides whose process is not known are not waited for); the time waited.
   */
  static Duration drain(Clock clock, List<S3Side> sides, Duration max) throws InterruptedException {
    long start = clock.monotonicNanos();
    long[] before = compilerNanos(sides);
    while (clock.monotonicNanos() - start < max.toNanos()) {
      clock.pause(WINDOW);
      long[] now = compilerNanos(sides);
      boolean idle = true;
      for (int i = 0; i < now.length; i++) {
        // A compiler thread that ends takes its time along: a drop counts as idle.
        idle &= now[i] - before[i] <= IDLE_NANOS;
      }
      if (idle) {
        break;
      }
      before = now;
    }
    return Duration.ofNanos(clock.monotonicNanos() - start);
  }

  private static long[] compilerNanos(List<S3Side> sides) {
    return sides.stream().mapToLong(side -> Math.max(0, side.serverCompilerNanos())).toArray();
  }
}
