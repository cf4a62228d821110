package org.tropos.common.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.fault.FaultPoints;

class ManagedRocksDbTest {
  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void rowsSurviveReopenAndOpenHandlesAreTracked() throws IOException {
    int before = ManagedRocksDb.openDatabases().size();
    try (ManagedRocksDb db = ManagedRocksDb.open(dir, List.of("nodes", "meta"))) {
      assertEquals(before + 1, ManagedRocksDb.openDatabases().size());
      db.put("nodes", b("a"), b("1"));
      db.writeBatch(batch -> {
        batch.put("nodes", b("b"), b("2"));
        batch.put("meta", b("v"), b("1"));
      });
      db.delete("nodes", b("a"));
    }
    assertEquals(before, ManagedRocksDb.openDatabases().size());
    try (ManagedRocksDb db = ManagedRocksDb.open(dir, List.of("nodes", "meta"))) {
      assertNull(db.get("nodes", b("a")));
      assertArrayEquals(b("1"), db.get("meta", b("v")));
      List<String> keys = new ArrayList<>();
      db.forEach("nodes", (k, v) -> keys.add(new String(k, StandardCharsets.UTF_8)));
      assertEquals(List.of("b"), keys);
    }
  }

  @Test
  void scanStartsAtAKeyAndStopsWhenToldAndRangesDeleteAtomically() throws IOException {
    try (ManagedRocksDb db = ManagedRocksDb.open(dir, List.of("rows"))) {
      for (String k : List.of("a", "b", "c", "d", "e")) {
        db.put("rows", b(k), b(k));
      }
      List<String> seen = new ArrayList<>();
      db.scan("rows", b("bb"), (k, v) -> {
        seen.add(new String(k, StandardCharsets.UTF_8));
        return seen.size() < 2;
      });
      assertEquals(List.of("c", "d"), seen, "from the first key after bb, two rows");
      db.writeBatch(batch -> batch.deleteRange("rows", b("b"), b("d")));
      List<String> left = new ArrayList<>();
      db.forEach("rows", (k, v) -> left.add(new String(k, StandardCharsets.UTF_8)));
      assertEquals(List.of("a", "d", "e"), left, "b and c gone, the end of the range kept");
    }
  }

  /** A write that fails (the fault point of every RocksDB write) leaves nothing behind, a batch none of its rows. */
  @Test
  void aFailedWriteChangesNothing() throws IOException {
    try (ManagedRocksDb db = ManagedRocksDb.open(dir, List.of("rows"))) {
      db.put("rows", b("a"), b("1"));
      try (FaultPoints.Armed armed = FaultPoints.arm(FaultPoints.ROCKSDB_WRITE, FaultPoints.failing())) {
        assertThrows(IOException.class, () -> db.put("rows", b("b"), b("2")));
        assertThrows(IOException.class, () -> db.delete("rows", b("a")));
        assertThrows(IOException.class, () -> db.writeBatch(batch -> {
          batch.put("rows", b("c"), b("3"));
          batch.delete("rows", b("a"));
        }));
      }
      assertArrayEquals(b("1"), db.get("rows", b("a")));
      assertNull(db.get("rows", b("b")));
      assertNull(db.get("rows", b("c")));
    }
  }
}
