package org.tropos.tools.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * A warm-up that lasts until the JIT compiler has settled: at least a given time, then further rounds while the
 * compiler still spent more than {@value #SETTLED_PERCENT} % of the last round compiling, up to a cap. A fixed
 * warm-up is not enough for every system alike on two cores: after 20 s the OM HA service (Ratis, gRPC and Netty
 * on top of the OM) still spent a quarter of its measured CPU in the compiler, a single OM about 1 %.
 */
final class JitWarmup {
  /** Compile time, as a share of a round's wall time, below which the compiler counts as settled. */
  static final int SETTLED_PERCENT = 2;
  private static final Duration ROUND = Duration.ofSeconds(5);

  /** Runs load for {@code round}, its first operation numbered {@code first}; returns the operations it ran. */
  @FunctionalInterface
  interface Load {
    long run(long first, Duration round) throws Exception;
  }

  private JitWarmup() {
  }

  /** Runs {@code load} for at least {@code min}, then in rounds until the compiler settles or {@code max}. */
  static void run(Duration min, Duration max, Load load) throws Exception {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    long done = load.run(0, min);
    for (Duration spent = min; spent.compareTo(max) < 0; spent = spent.plus(ROUND)) {
      long compiledBefore = jit.getTotalCompilationTime();
      done += load.run(done, ROUND);
      if ((jit.getTotalCompilationTime() - compiledBefore) * 100 < ROUND.toMillis() * SETTLED_PERCENT) {
        return;
      }
    }
  }
}
