package org.tropos.om.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ReadView;
import org.tropos.proto.om.db.JournalEntry;

/**
 * The validated write set as the unit that is logged (and, with OM HA, replicated): the same changes give the same
 * bytes on every OM, an entry applies to any database at the transaction it follows, and to no other.
 */
class OmDbWriteSetTest {
  @TempDir
  Path dir;

  private static OmDb.Change put(String key, String row) {
    return new OmDb.Change(OmTable.FILES, utf8(key), RowCodec.encode(1, utf8(row)));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] row(OmDb db, String key) throws IOException {
    try (ReadView view = db.latest()) {
      return view.get(OmTable.FILES.family(), utf8(key));
    }
  }

  @Test
  void anEntryAppliesAlikeOnAnotherDatabaseAtTheSameTransactionAndNowhereElse() throws Exception {
    try (OmDb leader = OmDb.open(dir.resolve("leader")); OmDb follower = OmDb.open(dir.resolve("follower"))) {
      JournalEntry first = leader.entry(List.of(put("a", "1"), put("b", "2")), 1);
      assertArrayEquals(first.toByteArray(), follower.entry(List.of(put("a", "1"), put("b", "2")), 1).toByteArray(),
          "the same write set encodes to the same bytes");
      leader.append(first);
      follower.append(first);
      JournalEntry second = leader.entry(List.of(new OmDb.Change(OmTable.FILES, utf8("a"), null)), 2);
      leader.append(second);

      JournalEntry stale = JournalEntry.newBuilder(second).setPreviousTxId(0).setLastTxId(5).build();
      IOException refused = assertThrows(IOException.class, () -> follower.append(stale));
      assertEquals("a write set following transaction 0 cannot apply to a namespace at transaction 1",
          refused.getMessage());
      assertEquals(1, follower.lastTxId(), "a refused entry changes nothing");

      follower.append(second);
      assertEquals(2, follower.lastTxId());
      assertNull(row(follower, "a"));
      assertArrayEquals(row(leader, "b"), row(follower, "b"));
    }
  }

  @Test
  void aCheckpointInstalledReplacesEveryRowAndSetsTheLogPosition() throws Exception {
    Path checkpoint = dir.resolve("checkpoint");
    try (OmDb leader = OmDb.open(dir.resolve("leader")); OmDb behind = OmDb.open(dir.resolve("behind"))) {
      leader.append(leader.entry(List.of(put("a", "1"), put("b", "2")), 1));
      leader.append(leader.entry(List.of(put("c", "3")), 2));
      leader.checkpoint(checkpoint);
      leader.append(leader.entry(List.of(put("after", "the checkpoint")), 3));
      behind.append(behind.entry(List.of(put("only", "behind"), put("a", "old")), 1));

      behind.install(checkpoint, 42);
      assertEquals(2, behind.lastTxId(), "the checkpoint's transaction");
      assertEquals(42, behind.lastLogIndex(), "the snapshot's log index");
      assertArrayEquals(row(leader, "a"), row(behind, "a"));
      assertArrayEquals(row(leader, "c"), row(behind, "c"));
      assertNull(row(behind, "only"), "a row the checkpoint lacks is gone");
      assertNull(row(behind, "after"), "nothing after the checkpoint");
      assertFalse(behind.installing());
    }
    try (OmDb reopened = OmDb.open(dir.resolve("behind"))) {
      assertEquals(2, reopened.lastTxId(), "the installation is durable");
      assertEquals(42, reopened.lastLogIndex());
      assertNull(row(reopened, "only"));
    }
  }
}
