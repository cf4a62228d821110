package org.tropos.scm.replication;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.util.Clock;

/**
 * Replication rounds asked for between the periodic ones, when containers turn CLOSED (those of a datanode declared
 * DEAD among them, whose lost replicas wait for a round): one runs {@link #GATHER} after it is first asked for, so
 * closes close together share it, and never sooner than {@link #SPACING} after the previous one began, so a stream
 * of closes in a busy cluster costs at most one extra round a second.
 *
 * <p>Thread-safe: asked for from report handlers, run on the replication scheduler.
 */
public final class ExtraReplicationRounds implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ExtraReplicationRounds.class);
  static final Duration GATHER = Duration.ofMillis(200);
  static final Duration SPACING = Duration.ofSeconds(1);

  private final ScheduledExecutorService scheduler;
  private final Runnable round;
  private final Clock clock;
  private final AtomicBoolean due = new AtomicBoolean();
  /** When the previous extra round began; before the first, a spacing before this was made. */
  private volatile long lastStartNanos;

  public ExtraReplicationRounds(ScheduledExecutorService scheduler, Runnable round, Clock clock) {
    this.scheduler = scheduler;
    this.round = round;
    this.clock = clock;
    this.lastStartNanos = clock.monotonicNanos() - SPACING.toNanos();
  }

  /** Asks for a round: schedules one unless one is due already. */
  @Override
  public void run() {
    if (!due.compareAndSet(false, true)) {
      return;
    }
    try {
      scheduler.schedule(this::runRound, delayNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      due.set(false); // Stopping: no more rounds.
    }
  }

  /** How long from now the round asked for waits. */
  long delayNanos() {
    return Math.max(GATHER.toNanos(), lastStartNanos + SPACING.toNanos() - clock.monotonicNanos());
  }

  private void runRound() {
    due.set(false);
    lastStartNanos = clock.monotonicNanos();
    try {
      round.run();
    } catch (RuntimeException e) {
      LOG.error("A replication round after containers closed failed; the next periodic one follows", e);
    }
  }
}
