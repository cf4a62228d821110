package org.tropos.common.util;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Executors with names and limits (STYLE.md 6: every queue has a limit and says what happens past it). */
public final class Threads {
  private static final Logger LOG = LoggerFactory.getLogger(Threads.class);

  private Threads() {
  }

  /** One daemon thread running scheduled tasks. */
  public static ScheduledExecutorService scheduler(String name) {
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, new NamedThreadFactory(name, true));
    executor.setRemoveOnCancelPolicy(true);
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    return executor;
  }

  /**
   * A fixed pool whose queue holds at most {@code queueLimit} tasks; past that, {@code execute} throws
   * {@link java.util.concurrent.RejectedExecutionException} so the caller can answer "busy".
   */
  public static ExecutorService boundedPool(String name, int threads, int queueLimit) {
    return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(queueLimit), new NamedThreadFactory(name, true),
        new ThreadPoolExecutor.AbortPolicy());
  }

  /**
   * Runs {@code task} every {@code period} (after {@code initialDelay}). An exception from one run is logged
   * and the next run still happens: a scheduled executor would otherwise cancel the task silently.
   */
  public static void everyPeriod(ScheduledExecutorService scheduler, String what, Duration initialDelay,
      Duration period, Runnable task) {
    scheduler.scheduleWithFixedDelay(() -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.error("{} failed; it runs again in {}", what, period, e);
      }
    }, initialDelay.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Waits until {@code condition} holds, checking it every {@code poll} on a scheduler thread of its own; fails
   * with a {@link java.util.concurrent.TimeoutException} naming {@code what} after {@code timeout}.
   */
  public static void awaitCondition(String what, Duration timeout, Duration poll,
      java.util.concurrent.Callable<Boolean> condition) throws Exception {
    java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
    ScheduledExecutorService checker = scheduler("await-" + what.replaceAll("\\W+", "-"));
    try {
      checker.scheduleWithFixedDelay(() -> {
        try {
          if (condition.call()) {
            done.complete(null);
          }
        } catch (Exception e) {
          done.completeExceptionally(e);
        }
      }, 0, poll.toMillis(), TimeUnit.MILLISECONDS);
      try {
        done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new java.util.concurrent.TimeoutException("no " + what + " within " + timeout);
      }
    } finally {
      checker.shutdownNow();
    }
  }

  /**
   * A fixed pool whose queue holds at most {@code queueLimit} tasks; past that the submitting thread runs the
   * task itself. Backpressure for producers that must not fail (e.g. Ratis's log thread writing chunk data).
   */
  public static ExecutorService boundedPoolWithBackpressure(String name, int threads, int queueLimit) {
    return new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(queueLimit), new NamedThreadFactory(name, true),
        new ThreadPoolExecutor.CallerRunsPolicy());
  }

  /** Stops an executor: no new tasks, waits up to {@code timeout}, then interrupts what still runs. */
  public static void shutdown(ExecutorService executor, Duration timeout) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("Executor did not stop within {}; interrupting its tasks", timeout);
        executor.shutdownNow();
      }
    } catch (InterruptedException e) {
      executor.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
