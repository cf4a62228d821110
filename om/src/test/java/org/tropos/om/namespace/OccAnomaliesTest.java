package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.om.occ.OccRunner.Operation;
import org.tropos.om.occ.OccRunner.Prepared;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * The seed's anomalies as crafted interleavings, without threads: transaction A reads and executes on a snapshot
 * (prepare), B runs and commits entirely, then A tries to commit. A must be refused when committing both would
 * break the namespace; its re-run then sees B. Independent transactions (creates of different names in one
 * directory) must both commit.
 */
class OccAnomaliesTest {
  @TempDir
  Path dir;
  private OmTestStore om;
  private OccRunner runner;

  @BeforeEach
  void open() throws Exception {
    om = new OmTestStore(dir);
    runner = om.runner;
    om.namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").build());
    om.namespace.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("fso").build());
  }

  @AfterEach
  void close() throws Exception {
    om.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private <T> Prepared<T> prepare(Operation<T> op) throws OmException {
    return runner.prepare(op);
  }

  private static BucketRow bucket(org.tropos.om.occ.Txn txn) throws OmException {
    return Buckets.require(txn, "vol1", "fso");
  }

  private OpenKeyRow open(String path, boolean noOverwrite) throws OmException {
    return om.namespace.openKey(OpenKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setKey(path)
        .setNoOverwrite(noOverwrite).build());
  }

  private static CommitKeyRequest commitOf(OpenKeyRow open, long size) {
    return CommitKeyRequest.newBuilder().setVolume("vol1").setBucket("fso").setOpenId(open.getOpenId())
        .setOpenKey(open.toByteString()).setSize(size).addBlocks(KeyBlock.newBuilder().setBlockId(BlockId.newBuilder().setContainerId(9)
            .setLocalId(open.getOpenId())).setLength(size)).build();
  }

  private Operation<Object> commitOp(OpenKeyRow open, long size) {
    return txn -> FsoChanges.commit(txn, bucket(txn), OpenKeys.carried(bucket(txn), open.toByteString()),
        commitOf(open, size));
  }

  private long deletedKeyRows() throws OmException {
    long[] n = {0};
    runner.run("count", txn -> {
      byte[] all = new byte[0];
      txn.scan(OmTable.DELETED_KEYS, all, all, org.tropos.proto.om.db.DeletedKeyRow.parser(), (k, r) -> ++n[0] > 0);
      return null;
    });
    return n[0];
  }

  @Test
  void lostUpdate_twoOverwritesOfOneFileBothCommitAndTheFirstOnesBlocksAreFreedNotLost() throws Exception {
    om.namespace.createDirectory("vol1", "fso", "d", "");
    OpenKeyRow a = open("d/f", false);
    OpenKeyRow b = open("d/f", false);
    Prepared<Object> first = prepare(commitOp(a, 10));
    Prepared<Object> second = prepare(commitOp(b, 20));
    assertTrue(runner.commit(first));
    assertTrue(runner.commit(second), "an overwrite replaces whatever is there at commit: no conflict");
    assertEquals(20, om.namespace.lookupKey("vol1", "fso", "d/f").getSize());
    assertEquals(1, deletedKeyRows(), "A's blocks are queued for deletion, not leaked");
    assertEquals(20, om.namespace.getBucket("vol1", "fso").getUsedBytes(), "usage counts only B");
    assertEquals(List.of(), NamespaceCheck.check(runner, "vol1", "fso"));
  }

  @Test
  void fuzzyRead_aCommitUnderADirectoryRenamedMeanwhileIsReRunAgainstTheNewTree() throws Exception {
    om.namespace.createDirectory("vol1", "fso", "x", "");
    OpenKeyRow a = open("x/f", false);
    Prepared<Object> commit = prepare(commitOp(a, 5));
    om.namespace.renameKey("vol1", "fso", "x", "y");
    assertFalse(runner.commit(commit), "x changed after A resolved it");
    OmException again = assertThrows(OmException.class, () -> runner.run("re-run", commitOp(a, 5)));
    assertEquals(OmResult.DIRECTORY_NOT_FOUND, again.result(), "x/f's parent is gone");
  }

  @Test
  void phantom_aDirectoryFoundEmptyThatGainsAChildIsNotDeleted() throws Exception {
    om.namespace.createDirectory("vol1", "fso", "d", "");
    Prepared<Object> delete = prepare(txn -> {
      FsoChanges.delete(txn, bucket(txn), "d", false, false);
      return null;
    });
    NamespaceTest.put(om.namespace, "fso", "d/new", 1, false);
    assertFalse(runner.commit(delete), "d is no longer empty");
    OmException again = assertThrows(OmException.class, () -> om.namespace.deleteKey("vol1", "fso", "d", false));
    assertEquals(OmResult.DIRECTORY_NOT_EMPTY, again.result());
    assertEquals(List.of(), NamespaceCheck.check(runner, "vol1", "fso"));
  }

  @Test
  void writeSkew_twoRenamesIntoEachOthersSubtreeCannotBothCommit() throws Exception {
    om.namespace.createDirectory("vol1", "fso", "a", "");
    om.namespace.createDirectory("vol1", "fso", "b", "");
    Prepared<Object> aIntoB = prepare(txn -> {
      FsoChanges.rename(txn, bucket(txn), "a", "b/a");
      return null;
    });
    Prepared<Object> bIntoA = prepare(txn -> {
      FsoChanges.rename(txn, bucket(txn), "b", "a/b");
      return null;
    });
    assertTrue(runner.commit(aIntoB));
    assertFalse(runner.commit(bIntoA), "committing both would make a and b each other's parent");
    assertEquals(List.of(), NamespaceCheck.check(runner, "vol1", "fso"), "no cycle, no orphan");
    assertTrue(om.namespace.getFileStatus("vol1", "fso", "b/a").getDirectory());
  }

  @Test
  void createsOfDifferentNamesInOneDirectoryBothCommitWithoutConflict() throws Exception {
    om.namespace.createDirectory("vol1", "fso", "shared", "");
    OpenKeyRow a = open("shared/one", false);
    OpenKeyRow b = open("shared/two", false);
    Prepared<Object> first = prepare(commitOp(a, 1));
    Prepared<Object> second = prepare(commitOp(b, 1));
    assertTrue(runner.commit(first));
    assertTrue(runner.commit(second), "disjoint rows: no parent lock, no conflict");
    assertEquals(2, om.namespace.listStatus("vol1", "fso", "shared", "", 0).getEntriesCount());
  }

  @Test
  void createsOfOneNameConflictAndTheLoserSeesTheWinner() throws Exception {
    om.namespace.createDirectory("vol1", "fso", "d", "");
    OpenKeyRow a = open("d/same", true);
    OpenKeyRow b = open("d/same", true);
    Prepared<Object> first = prepare(commitOp(a, 1));
    Prepared<Object> second = prepare(commitOp(b, 2));
    assertTrue(runner.commit(first));
    assertFalse(runner.commit(second));
    OmException again = assertThrows(OmException.class, () -> runner.run("re-run", commitOp(b, 2)));
    assertEquals(OmResult.FILE_ALREADY_EXISTS, again.result());
  }
}
