package org.tropos.om.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ReadView;

/**
 * A process that dies without closing the OM database (no RocksDB flush, no shutdown hook) loses nothing it
 * applied: the journal holds what RocksDB's memtables had, and opening replays it.
 */
class OmDbCrashTest {
  private static final int BATCHES = 3000;
  private static final long SEGMENT = 256 * 1024;

  @TempDir
  Path dir;

  /** The crashing process: applies batches, then halts the JVM. */
  public static void main(String[] args) throws IOException {
    OmDb db = OmDb.open(Path.of(args[0]), SEGMENT);
    for (int i = 1; i <= BATCHES; i++) {
      db.apply(List.of(change(i), new OmDb.Change(OmTable.FILES, key(i - 1), null)), i);
    }
    Runtime.getRuntime().halt(0);
  }

  private static OmDb.Change change(int i) {
    return new OmDb.Change(OmTable.FILES, key(i), RowCodec.encode(i, ("row " + i).getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] key(int i) {
    return ("file-" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyBatchAppliedBeforeACrashIsThereAfterReopening() throws Exception {
    Path db = dir.resolve("om.db");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), OmDbCrashTest.class.getName(), db.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the writer finishes");
    assertEquals(0, child.exitValue(), "the writer ran (see child.log)");

    try (OmDb reopened = OmDb.open(db, SEGMENT)) {
      assertTrue(reopened.replayedOnOpen() > 0, "the tail was only in the journal");
      assertEquals(BATCHES, reopened.lastTxId());
      try (ReadView view = reopened.latest()) {
        byte[] last = view.get(OmTable.FILES.family(), key(BATCHES));
        assertNotNull(last);
        assertEquals("row " + BATCHES, new String(RowCodec.payload(last), StandardCharsets.UTF_8));
        assertEquals(BATCHES, RowCodec.updateId(last));
        assertNull(view.get(OmTable.FILES.family(), key(BATCHES - 1)), "deletes are replayed too");
      }
      reopened.apply(List.of(change(BATCHES + 1)), BATCHES + 1);
    }
    try (OmDb again = OmDb.open(db, SEGMENT)) {
      assertEquals(0, again.replayedOnOpen(), "a clean close leaves nothing to replay");
      assertEquals(BATCHES + 1, again.lastTxId());
    }
  }
}
