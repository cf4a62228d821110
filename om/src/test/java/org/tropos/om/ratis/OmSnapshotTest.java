package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.tropos.om.ratis.OmRaftGroup.put;
import static org.tropos.om.ratis.OmRaftGroup.row;
import static org.tropos.om.ratis.OmRaftGroup.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.io.FileTrees;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;

/**
 * Snapshots over a real Raft group: with snapshots every few entries and the log purged behind them, an OM that
 * was stopped while the others went on finds the entries it misses gone from the leader's log, is sent the
 * leader's RocksDB checkpoint, loads it and then follows the log; every OM ends with the same rows, also after
 * all three restart (each from its own snapshot and the log after it).
 */
@Timeout(180)
class OmSnapshotTest {
  private static final int WRITES = 400;

  @TempDir
  Path dir;

  @Test
  void anOmBehindThePurgedLogInstallsTheLeadersCheckpointAndCatchesUp() throws Exception {
    Map<String, String> frequentSnapshots = Map.of("ozone.om.ratis.snapshot.auto.trigger.threshold", "50",
        "ozone.om.ratis.log.purge.gap", "20", "ozone.om.ratis.segment.size", "8KB");
    try (OmRaftGroup group = new OmRaftGroup(dir, 3, frequentSnapshots)) {
      RatisBatchLog log = new RatisBatchLog(group.client());
      log.append(group.leaderDb().entry(List.of(put("before", "the stop")), 1));
      group.awaitAll(1);
      int lagging = (group.leaderIndex() + 1) % 3;
      group.stop(lagging);

      for (int tx = 2; tx <= WRITES; tx++) {
        log.append(group.leaderDb().entry(List.of(put("key-" + tx, "row " + tx)), tx));
      }
      int leader = group.leaderIndex();
      long purgedBefore = raftLogStart(group.servers.get(leader));
      assertTrue(purgedBefore > 2, "the leader's log no longer holds what the stopped OM misses (starts at "
          + purgedBefore + ")");
      assertTrue(snapshotsIn(group.ratisDir(leader)) > 0, "the leader took snapshots");

      group.start(lagging);
      Threads.awaitCondition("the stopped OM caught up", Duration.ofSeconds(90), Duration.ofMillis(50),
          () -> group.dbs.get(lagging).lastTxId() == WRITES);
      OmDb caughtUp = group.dbs.get(lagging);
      assertTrue(snapshotsIn(group.ratisDir(lagging)) > 0, "the stopped OM was sent a snapshot");
      assertEquals("the stop", text(row(caughtUp, "before")));
      for (int tx = 2; tx <= WRITES; tx++) {
        assertArrayEquals(row(group.dbs.get(leader), "key-" + tx), row(caughtUp, "key-" + tx), "key-" + tx);
      }

      // It follows the log again, and everything survives a restart of all three.
      log.append(group.leaderDb().entry(List.of(put("after", "the install")), WRITES + 1));
      group.awaitAll(WRITES + 1);
      group.close();
      group.start();
      new RatisBatchLog(group.client()).append(group.leaderDb().entry(List.of(put("after", "restart")),
          WRITES + 2));
      group.awaitAll(WRITES + 2);
      for (OmDb db : group.dbs) {
        assertEquals("restart", text(row(db, "after")));
        assertEquals("row " + WRITES, text(row(db, "key-" + WRITES)));
        assertEquals("the stop", text(row(db, "before")));
      }
    }
  }

  private static long raftLogStart(OmRaftServer server) throws Exception {
    long[] start = {0};
    Threads.awaitCondition("a purged log", Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
      start[0] = server.raftLogStartIndex();
      return start[0] > 2;
    });
    return start[0];
  }

  /** Snapshot directories under an OM's Raft storage (a walk that tolerates checkpoints written meanwhile). */
  private static long snapshotsIn(Path ratisDir) throws IOException {
    return FileTrees.regularFileSizes(ratisDir).keySet().stream().map(Path::getParent).distinct()
        .filter(d -> d.getFileName().toString().matches("snapshot\\.\\d+_\\d+")).count();
  }
}
