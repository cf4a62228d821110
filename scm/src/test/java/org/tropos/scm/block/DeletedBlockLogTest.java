package org.tropos.scm.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.db.DeletedBlocksRecord;
import org.tropos.scm.db.ScmDb;

class DeletedBlockLogTest {
  @TempDir
  Path dir;
  private ScmDb db;
  private DeletedBlockLog log;

  @BeforeEach
  void open() throws IOException {
    db = ScmDb.open(dir);
    log = new DeletedBlockLog(db);
    log.load();
  }

  @AfterEach
  void close() {
    db.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  static KeyBlocks key(String id, long... containerLocalPairs) {
    KeyBlocks.Builder key = KeyBlocks.newBuilder().setKeyId(id);
    for (int i = 0; i < containerLocalPairs.length; i += 2) {
      key.addBlocks(BlockId.newBuilder().setContainerId(containerLocalPairs[i]).setLocalId(containerLocalPairs[i + 1]));
    }
    return key.build();
  }

  private static DeletedBlocksRecord row(long tx, long container, String key, Long... localIds) {
    return DeletedBlocksRecord.newBuilder().setTxId(tx).setContainerId(container).setKeyId(key)
        .addAllLocalIds(List.of(localIds)).build();
  }

  @Test
  void aKeysBlocksAreGroupedByContainerIntoOneTransactionEach() throws Exception {
    log.append(List.of(key("k1", 1, 10, 2, 20, 1, 11, 1, 10), key("k2", 2, 21), key("empty")));
    assertEquals(List.of(row(1, 1, "k1", 10L, 11L), row(2, 2, "k1", 20L), row(3, 2, "k2", 21L)),
        log.read(0, 100), "a block named twice is deleted once; a key without blocks needs no transaction");
    assertEquals(List.of(row(3, 2, "k2", 21L)), log.read(3, 100));
    assertEquals(List.of(row(1, 1, "k1", 10L, 11L)), log.read(0, 1));
  }

  @Test
  void transactionsSurviveAReopenAndIdsAreNeverReused() throws Exception {
    log.append(List.of(key("k1", 1, 10), key("k2", 1, 11)));
    log.remove(List.of(1L, 2L));
    assertEquals(0, log.size());
    db.close();
    db = ScmDb.open(dir);
    log = new DeletedBlockLog(db);
    log.load();
    log.append(List.of(key("k3", 4, 40)));
    db.close();
    db = ScmDb.open(dir);
    log = new DeletedBlockLog(db);
    log.load();
    assertEquals(List.of(row(3, 4, "k3", 40L)), log.read(0, 100), "id 3 although the log was empty at restart");
  }
}
