package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tropos.om.ratis.OmRaftGroup.put;
import static org.tropos.om.ratis.OmRaftGroup.row;
import static org.tropos.om.ratis.OmRaftGroup.text;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import org.tropos.proto.om.OmResult;

/**
 * Over a real Raft group of three OMs: the leader serves while a majority answers it, and stops serving when its
 * lease ends, while Ratis still has it lead (another OM may have been elected by then); a follower serves reads
 * only when configured to, and then sees every write committed before the read.
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
      Leadership leadership = group.servers.get(leader).leadership(ObjectIds.replicated(group.dbs.get(leader)),
          () -> { });
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

  @Test
  void aFollowerServingReadsSeesEveryWriteCommittedBeforeTheRead() throws Exception {
    try (OmRaftGroup group = new OmRaftGroup(dir, 3, Map.of("ozone.om.follower.read.enabled", "true"))) {
      int leader = group.awaitLeader(-1);
      int follower = (leader + 1) % 3;
      Leadership followerLeadership = group.servers.get(follower).leadership(
          ObjectIds.replicated(group.dbs.get(follower)), () -> { });
      OmException writes = assertThrows(OmException.class, followerLeadership::require);
      assertEquals(OmResult.NOT_LEADER, writes.result(), "a follower takes no writes");

      RatisBatchLog log = new RatisBatchLog(group.client());
      for (int tx = 1; tx <= 50; tx++) {
        log.append(group.leaderDb().entry(List.of(put("key", "row " + tx)), tx));
        followerLeadership.requireForRead();
        assertEquals("row " + tx, text(row(group.dbs.get(follower), "key")), "the follower read the write"
            + " acknowledged just before");
      }
    }
  }

  @Test
  void aFollowerNotServingReadsSendsThemToTheLeader() throws Exception {
    try (OmRaftGroup group = new OmRaftGroup(dir, 3)) {
      int follower = (group.awaitLeader(-1) + 1) % 3;
      Leadership followerLeadership = group.servers.get(follower).leadership(
          ObjectIds.replicated(group.dbs.get(follower)), () -> { });
      OmException refused = assertThrows(OmException.class, followerLeadership::requireForRead);
      assertEquals(OmResult.NOT_LEADER, refused.result());
    }
  }
}
