package org.tropos.scm.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tropos.common.util.ManualClock;

class ExtraReplicationRoundsTest {
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final ManualClock clock = new ManualClock();
  private final AtomicInteger rounds = new AtomicInteger();
  private final ExtraReplicationRounds extra = new ExtraReplicationRounds(scheduler, rounds::incrementAndGet, clock);

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @Test
  void closesCloseTogetherShareOneRoundSoon() throws Exception {
    assertEquals(ExtraReplicationRounds.GATHER.toNanos(), extra.delayNanos());
    extra.run();
    extra.run();
    extra.run();
    drain();
    assertEquals(1, rounds.get());
  }

  @Test
  void aRoundAskedForRightAfterOneWaitsUntilASecondAfterItBegan() throws Exception {
    extra.run();
    drain();
    clock.advance(Duration.ofMillis(300));
    assertEquals(Duration.ofMillis(700).toNanos(), extra.delayNanos());
    clock.advance(Duration.ofSeconds(5));
    assertEquals(ExtraReplicationRounds.GATHER.toNanos(), extra.delayNanos());
  }

  /** Waits for what the scheduler holds (the round, GATHER from now) to have run. */
  private void drain() throws Exception {
    scheduler.schedule(() -> { }, ExtraReplicationRounds.GATHER.toMillis() + 50, TimeUnit.MILLISECONDS).get();
  }
}
