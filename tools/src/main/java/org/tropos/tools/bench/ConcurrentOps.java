package org.tropos.tools.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;

/** Runs operations 0..n-1 on a fixed number of threads, as fast as they go, timing each. */
final class ConcurrentOps {
  /** Operation number {@code i}. */
  @FunctionalInterface
  interface Op {
    void run(long i) throws Exception;
  }

  /**
   * Throughput and latency of one run: {@code ops} succeeded (the rates and latencies are theirs), {@code errors}
   * failed, the first of them described by {@code firstError} (empty without errors); {@code latencies} in
   * nanoseconds.
   */
  record Result(long ops, double seconds, double opsPerSec, double p50Ms, double p99Ms, double maxMs, long errors,
      String firstError, Histogram latencies) {
    /** Several runs as one: their operations over their summed time, percentiles over all their latencies. */
    static Result combined(List<Result> runs) {
      Histogram all = new Histogram(3);
      long ops = 0;
      double seconds = 0;
      long errors = 0;
      String firstError = "";
      for (Result r : runs) {
        all.add(r.latencies());
        ops += r.ops();
        seconds += r.seconds();
        errors += r.errors();
        firstError = firstError.isEmpty() ? r.firstError() : firstError;
      }
      return of(ops, seconds, all, errors, firstError);
    }

    private static Result of(long ops, double seconds, Histogram latencies, long errors, String firstError) {
      return new Result(ops, seconds, ops / seconds, latencies.getValueAtPercentile(50) / 1e6,
          latencies.getValueAtPercentile(99) / 1e6, latencies.getMaxValue() / 1e6, errors, firstError, latencies);
    }
  }

  private ConcurrentOps() {
  }

  /** Runs operations 0..n-1; the first that fails ends the run with its exception. */
  static Result run(Clock clock, String name, int threads, long n, Op op) throws Exception {
    return run(clock, name, threads, op, next -> next < n, false);
  }

  /** Runs operations 0..n-1, every one even when some fail: those are counted in {@link Result#errors}. */
  static Result runCountingErrors(Clock clock, String name, int threads, long n, Op op) throws Exception {
    return run(clock, name, threads, op, next -> next < n, true);
  }

  /**
   * Runs operations {@code first}, {@code first + 1}, ... on {@code threads} threads for {@code duration}: none
   * starts after it (time-bound runs compare systems that need different times to warm up, at equal length).
   */
  static Result runFor(Clock clock, String name, int threads, long first, Duration duration, Op op)
      throws Exception {
    long end = clock.monotonicNanos() + duration.toNanos();
    return run(clock, name, threads, i -> op.run(first + i), next -> clock.monotonicNanos() < end, false);
  }

  /** Whether operation number {@code next} is to run. */
  @FunctionalInterface
  private interface Continue {
    boolean test(long next);
  }

  private static Result run(Clock clock, String name, int threads, Op op, Continue more, boolean countErrors)
      throws Exception {
    Recorder latencies = new Recorder(3);
    AtomicLong next = new AtomicLong();
    AtomicLong ran = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    AtomicReference<String> firstError = new AtomicReference<>("");
    ExecutorService pool = Threads.boundedPool(name, threads, threads);
    long start = clock.monotonicNanos();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          for (long i = next.getAndIncrement(); more.test(i); i = next.getAndIncrement()) {
            long t0 = clock.monotonicNanos();
            try {
              op.run(i);
            } catch (Exception e) {
              if (!countErrors) {
                throw e;
              }
              if (errors.getAndIncrement() == 0) {
                firstError.set("operation " + i + ": " + e);
              }
              continue;
            }
            latencies.recordValue(Math.max(1, clock.monotonicNanos() - t0));
            ran.incrementAndGet();
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      Threads.shutdown(pool, Duration.ofSeconds(30));
    }
    double seconds = (clock.monotonicNanos() - start) / 1e9;
    return Result.of(ran.get(), seconds, latencies.getIntervalHistogram(), errors.get(), firstError.get());
  }
}
