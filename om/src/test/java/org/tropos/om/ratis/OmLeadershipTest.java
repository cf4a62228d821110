package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.rpc.Leadership;

/**
 * Over a real Raft group of three OMs: the leader serves while a majority answers it, and stops serving when its
 * lease ends, while Ratis still has it lead (another OM may have been elected by then).
 */
@Timeout(120)
class OmLeadershipTest {
  @TempDir
  Path dir;

  private final Clock clock = SystemClock.INSTANCE;

  @Test
  void aLeaderCutOffFromItsFollowersStopsServingWhenItsLeaseEndsBeforeItStepsDown() throws Exception {
    try (OmRaftGroup group = new OmRaftGroup(dir, 3)) {
      int leader = group.awaitLeader(-1);
      Leadership leadership = group.servers.get(leader).leadership(ObjectIds.replicated(group.dbs.get(leader)));
      Threads.awaitCondition("the leader serving", Duration.ofSeconds(10), Duration.ofMillis(20), () -> {
        try {
          leadership.require();
          return true;
        } catch (OmException e) {
          return false;
        }
      });

      CompletableFuture<Void> followersStopped = CompletableFuture.runAsync(() -> {
        for (int i = 0; i < 3; i++) {
          if (i != leader) {
            try {
              group.stop(i);
            } catch (java.io.IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        }
      });
      OmException refused = null;
      boolean stillLeader = false;
      while (refused == null) {
        stillLeader = group.servers.get(leader).isLeader();
        try {
          leadership.require();
          clock.pause(Duration.ofMillis(10));
        } catch (OmException e) {
          refused = e;
        }
      }
      followersStopped.get();
      assertTrue(stillLeader && refused.getMessage().contains("has not heard from a majority"), "the OM stopped"
          + " serving on its lease while Ratis still had it lead, not on the step-down: " + refused.getMessage());
    }
  }
}
