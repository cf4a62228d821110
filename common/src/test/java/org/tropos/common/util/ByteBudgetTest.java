package org.tropos.common.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ByteBudgetTest {
  @Test
  void sharesTakeUpToTheLimitAndGetRoomBackWhenOthersGive() throws Exception {
    ByteBudget budget = new ByteBudget(100);
    ByteBudget.Share a = budget.share(new Object());
    ByteBudget.Share b = budget.share(new Object());
    assertTrue(a.tryTake(60));
    assertFalse(b.tryTake(50), "60 + 50 is over 100");
    assertTrue(b.tryTake(40));
    assertEquals(100, budget.held());

    ExecutorService waiter = Executors.newSingleThreadExecutor();
    try {
      CompletableFuture<Void> taken = CompletableFuture.runAsync(() -> {
        try {
          b.take(30);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }, waiter);
      assertThrows(TimeoutException.class, () -> taken.get(200, TimeUnit.MILLISECONDS), "no room yet");
      a.give(20);
      assertThrows(TimeoutException.class, () -> taken.get(200, TimeUnit.MILLISECONDS), "20 free, 30 asked");
      a.close();
      taken.get(5, TimeUnit.SECONDS);
      assertEquals(70, budget.held());
    } finally {
      waiter.shutdownNow();
    }
  }

  @Test
  void aRequestLargerThanTheBudgetIsGrantedWhenNothingElseIsHeld() throws Exception {
    ByteBudget budget = new ByteBudget(10);
    ByteBudget.Share share = budget.share(new Object());
    share.take(64);
    assertEquals(64, budget.held());
    assertFalse(budget.share(new Object()).tryTake(1));
    share.give(1000);
    assertEquals(0, budget.held(), "a share gives back at most what it holds");
  }

  @Test
  void aShareWhoseHolderIsCollectedUnclosedIsGivenBack() throws Exception {
    ByteBudget budget = new ByteBudget(100);
    takeAndForget(budget, 80);
    assertEquals(80, budget.held());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (budget.held() > 0 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(50); // the collector and its cleaner thread run when they will: polled
    }
    assertEquals(0, budget.held());
  }

  private static void takeAndForget(ByteBudget budget, long bytes) {
    assertTrue(budget.share(new Object()).tryTake(bytes));
  }

  @Test
  void aBudgetMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> new ByteBudget(0));
  }
}
