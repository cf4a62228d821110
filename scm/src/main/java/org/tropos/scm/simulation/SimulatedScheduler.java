package org.tropos.scm.simulation;

import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.tropos.common.simulation.SimulatedClock;

/**
 * A scheduler that runs nothing by itself: the simulation runs the tasks that are due, in order of due time and
 * then of scheduling, on its own thread ({@link #runDue}). Periodic scheduling is not needed by what the
 * simulation drives and is refused.
 */
final class SimulatedScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  private final SimulatedClock clock;
  private final PriorityQueue<Task<?>> queue = new PriorityQueue<>();
  private long scheduled;
  private boolean shutdown;

  SimulatedScheduler(SimulatedClock clock) {
    this.clock = clock;
  }

  /**
   * Runs every task due by now, including those the tasks schedule for now.
   *
   * @throws IllegalStateException carrying what a task threw: the simulation fails on it, as it would go unseen
   *     in a real scheduler's log
   */
  void runDue() {
    while (!queue.isEmpty() && queue.peek().due <= clock.millis()) {
      Task<?> task = queue.poll();
      task.run();
      try {
        if (!task.isCancelled()) {
          task.get();
        }
      } catch (ExecutionException e) {
        throw new IllegalStateException("a scheduled task failed: " + e.getCause(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  /** Drops what is waiting (an SCM that restarts loses its scheduled work). */
  void clear() {
    queue.clear();
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    return add(new Task<>(command, null, clock.millis() + unit.toMillis(delay), scheduled++));
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    return add(new Task<>(callable, clock.millis() + unit.toMillis(delay), scheduled++));
  }

  @Override
  public void execute(Runnable command) {
    schedule(command, 0, TimeUnit.MILLISECONDS);
  }

  private <V> Task<V> add(Task<V> task) {
    if (shutdown) {
      throw new RejectedExecutionException("the simulated scheduler is shut down");
    }
    queue.add(task);
    return task;
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw new UnsupportedOperationException("the simulation runs periodic work itself");
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("the simulation runs periodic work itself");
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    List<Runnable> left = List.copyOf(queue);
    queue.clear();
    return left;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }

  /** A task due at a simulated time; cancelling it takes it out of the queue. */
  private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
    final long due;
    final long order;

    Task(Runnable runnable, V result, long due, long order) {
      super(runnable, result);
      this.due = due;
      this.order = order;
    }

    Task(Callable<V> callable, long due, long order) {
      super(callable);
      this.due = due;
      this.order = order;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      queue.remove(this);
      return super.cancel(mayInterruptIfRunning);
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - clock.millis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      Task<?> task = (Task<?>) other;
      return due != task.due ? Long.compare(due, task.due) : Long.compare(order, task.order);
    }
  }
}
