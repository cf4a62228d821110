package org.tropos.common.db;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
