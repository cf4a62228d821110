package org.tropos.scm.block;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.DeletedBlocksRecord;
import org.tropos.scm.db.ScmDb;

/**
 * SCM's log of blocks to delete, in its RocksDB (column family {@code deletedBlocks}): one transaction per deleted key
 * and container, holding that key's blocks in that container. A deletion OM hands over is durable once
 * {@link #append} returns; a transaction leaves the log when every replica of its container has carried it out
 * ({@link BlockDeletingService}). Transaction ids only grow, also across restarts, so a late acknowledgement can
 * never be taken for a newer transaction.
 *
 * <p>Thread-safety: appends are serialised by this object's monitor (the id counter); reads and removals go to
 * RocksDB, which is thread-safe.
 */
public final class DeletedBlockLog {
  private static final Logger LOG = LoggerFactory.getLogger(DeletedBlockLog.class);

  private final ScmDb db;
  private long nextTxId;

  public DeletedBlockLog(ScmDb db) {
    this.db = db;
  }

  public synchronized void load() throws IOException {
    nextTxId = db.nextDeletedBlocksTxId();
    LOG.info("SCM has {} deleted-block transactions waiting; next transaction id {}", db.deletedBlocksCount(),
        nextTxId);
  }

  /**
   * Records the blocks of deleted keys: one transaction per key and container, all in one synced write, so either
   * every key is recorded or none is.
   */
  public synchronized void append(List<KeyBlocks> keys) throws ScmException {
    List<DeletedBlocksRecord> records = new ArrayList<>();
    long txId = nextTxId;
    for (KeyBlocks key : keys) {
      for (Map.Entry<Long, Set<Long>> c : byContainer(key.getBlocksList()).entrySet()) {
        records.add(DeletedBlocksRecord.newBuilder().setTxId(txId++).setContainerId(c.getKey())
            .addAllLocalIds(c.getValue()).setKeyId(key.getKeyId()).build());
      }
    }
    if (records.isEmpty()) {
      return;
    }
    try {
      db.appendDeletedBlocks(records, txId);
    } catch (IOException e) {
      LOG.error("SCM cannot record the blocks of {} deleted keys", keys.size(), e);
      throw new ScmException(ScmResult.INTERNAL_ERROR, "SCM cannot record deleted blocks: " + e.getMessage());
    }
    nextTxId = txId;
  }

  private static Map<Long, Set<Long>> byContainer(List<BlockId> blocks) {
    Map<Long, Set<Long>> grouped = new LinkedHashMap<>();
    for (BlockId b : blocks) {
      grouped.computeIfAbsent(b.getContainerId(), c -> new LinkedHashSet<>()).add(b.getLocalId());
    }
    return grouped;
  }

  /** Up to {@code limit} transactions with ids from {@code fromTxId} on, in id order. */
  public List<DeletedBlocksRecord> read(long fromTxId, int limit) throws IOException {
    return db.deletedBlocks(fromTxId, limit);
  }

  /** How many transactions are waiting (a full scan). */
  public long size() {
    return db.deletedBlocksCount();
  }

  /** Removes transactions every replica has carried out. */
  public void remove(Collection<Long> txIds) throws IOException {
    if (!txIds.isEmpty()) {
      db.removeDeletedBlocks(txIds);
    }
  }
}
