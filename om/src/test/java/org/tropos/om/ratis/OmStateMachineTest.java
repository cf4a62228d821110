package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.tropos.om.ratis.OmRaftGroup.put;
import static org.tropos.om.ratis.OmRaftGroup.row;
import static org.tropos.om.ratis.OmRaftGroup.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.StaleWriteSetException;
import org.tropos.proto.om.db.JournalEntry;

/**
 * Three OMs' databases behind a real Raft group on loopback: write sets built by the leader reach every replica
 * alike, a write set validated against an older state is refused everywhere and changes nothing, and the group
 * goes on after its leader stops and after everything restarts (each member recovering its own log).
 */
@Timeout(120)
class OmStateMachineTest {
  @TempDir
  Path dir;

  @Test
  void writeSetsReachEveryOmAlikeAndAStaleOneChangesNothingThroughAFailoverAndARestart() throws Exception {
    try (OmRaftGroup group = new OmRaftGroup(dir, 3)) {
      RatisBatchLog log = new RatisBatchLog(group.client());
      for (int tx = 1; tx <= 20; tx++) {
        log.append(group.leaderDb().entry(List.of(put("key-" + tx, "row " + tx)), tx));
      }
      group.awaitAll(20);
      for (OmDb db : group.dbs) {
        assertArrayEquals(row(group.dbs.get(0), "key-7"), row(db, "key-7"));
      }

      JournalEntry first = group.leaderDb().entry(List.of(put("race", "first")), 21);
      JournalEntry second = group.leaderDb().entry(List.of(put("race", "second")), 21);
      log.append(first);
      StaleWriteSetException refused = assertThrows(StaleWriteSetException.class, () -> log.append(second));
      assertTrue(refused.getMessage().contains("refused: it follows transaction 20, the namespace is at 21"),
          refused.getMessage());
      group.awaitAll(21);
      for (OmDb db : group.dbs) {
        assertEquals("first", text(row(db, "race")));
      }

      int stopped = group.leaderIndex();
      group.servers.get(stopped).close();
      int next = group.awaitLeader(stopped);
      log.append(group.dbs.get(next).entry(List.of(put("after", "failover")), 22));
      for (int i = 0; i < 3; i++) {
        if (i != stopped) {
          OmDb db = group.dbs.get(i);
          Threads.awaitCondition("OM " + i + " at transaction 22", Duration.ofSeconds(10), Duration.ofMillis(20),
              () -> db.lastTxId() == 22);
        }
      }

      // Everything restarts: each OM replays the Raft log over a database that already holds most of it.
      group.close();
      group.start();
      new RatisBatchLog(group.client()).append(group.leaderDb().entry(List.of(put("after", "restart")), 23));
      group.awaitAll(23);
      for (OmDb db : group.dbs) {
        assertEquals("restart", text(row(db, "after")),
            "every OM, the one stopped at the failover too, holds the last write set once");
        assertEquals("first", text(row(db, "race")));
        assertArrayEquals(row(group.dbs.get(0), "key-20"), row(db, "key-20"));
      }
    }
  }
}
