package org.tropos.datanode.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.BlockId;

/** A volume's database stays a few table files however many containers leave OPEN, each with a flush. */
class VolumeDbTest {
  private static final int CONTAINERS = 300;

  @TempDir
  Path dir;

  @AfterEach
  void noDatabaseLeftOpen() {
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private static BlockData block(long container) {
    return BlockData.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(container).setLocalId(1))
        .setLength(container).build();
  }

  @Test
  void containersLeavingOpenOneByOneLeaveAFewTableFiles() throws IOException {
    try (VolumeDb db = VolumeDb.open(dir)) {
      for (long c = 1; c <= CONTAINERS; c++) {
        db.put(block(c));
        db.flushLeavingOpen(c);
      }
      assertTrue(db.tableFiles() < 32, db.tableFiles() + " table files after " + CONTAINERS + " flushes");
      for (long c = 1; c <= CONTAINERS; c++) {
        assertEquals(block(c), db.get(block(c).getBlockId()));
      }
    }
  }

  @Test
  void aDatabaseOfManySmallFilesIsCompactedWhenOpened() throws IOException {
    try (ManagedRocksDb raw = ManagedRocksDb.open(dir, List.of("blocks", "deletedBlocks"))) {
      for (long c = 1; c <= CONTAINERS; c++) {
        byte[] key = java.nio.ByteBuffer.allocate(16).putLong(c).putLong(1).array();
        byte[] value = block(c).toByteArray();
        raw.writeBatchUnlogged(batch -> batch.put("blocks", key, value));
        raw.flush();
      }
      assertTrue(raw.tableFiles() >= CONTAINERS, "as an older version left it: " + raw.tableFiles() + " files");
    }
    try (VolumeDb db = VolumeDb.open(dir)) {
      assertTrue(db.tableFiles() < 8, db.tableFiles() + " table files");
      assertEquals(block(CONTAINERS), db.get(block(CONTAINERS).getBlockId()));
    }
  }
}
