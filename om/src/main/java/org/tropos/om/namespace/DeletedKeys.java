package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DeletedKeyRow;
import org.tropos.proto.om.db.FileRow;

/**
 * Removes a key from the namespace in the same transaction that queues its blocks for deletion: the blocks are
 * handed to SCM later, in the background, so never before the key is gone.
 */
final class DeletedKeys {
  private DeletedKeys() {
  }

  /** Deletes the row at {@code key} of {@code table} holding {@code file}, and queues its blocks. */
  static void remove(Txn txn, BucketRow bucket, OmTable table, byte[] key, String path, FileRow file)
      throws OmException {
    remove(txn, Usage.key(bucket), table, key, FsoTree.name(bucket) + "/" + path, file);
  }

  /** The same, for a bucket known by its usage key ("volume/bucket") and a full path, as the purge has them. */
  static void remove(Txn txn, String bucketKey, OmTable table, byte[] key, String fullPath, FileRow file)
      throws OmException {
    txn.delete(table, key);
    if (file.getBlocksCount() > 0) {
      txn.put(OmTable.DELETED_KEYS, OmDbKeys.ids(txn.newObjectId(), file.getObjectId()), DeletedKeyRow.newBuilder()
          .setPath(fullPath).addAllBlocks(file.getBlocksList()).setDeletedTimeMs(txn.nowMillis()).build());
    }
    Usage.free(txn, bucketKey, file.getSize(), 1);
  }

  /** Queues blocks that no key holds any more (a replaced or abandoned multipart part) for deletion. */
  static void queue(Txn txn, String fullPath, List<KeyBlock> blocks) throws OmException {
    if (!blocks.isEmpty()) {
      txn.put(OmTable.DELETED_KEYS, OmDbKeys.ids(txn.newObjectId(), 0), DeletedKeyRow.newBuilder().setPath(fullPath)
          .addAllBlocks(blocks).setDeletedTimeMs(txn.nowMillis()).build());
    }
  }

  /**
   * Up to {@code max} queued deleted keys, each with the blocks whose last reference it held. References to
   * shared blocks are dropped now, and the key's row keeps only the blocks left to delete (none: the row goes),
   * so a retry after SCM failed to take them drops nothing twice.
   */
  static List<DeletedKeyBlocks> release(Txn txn, int max) throws OmException {
    List<byte[]> keys = new ArrayList<>();
    List<DeletedKeyRow> rows = new ArrayList<>();
    byte[] all = new byte[0];
    txn.scan(OmTable.DELETED_KEYS, all, all, DeletedKeyRow.parser(), (k, row) -> {
      keys.add(k);
      rows.add(row);
      return keys.size() < max;
    });
    List<DeletedKeyBlocks> released = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      DeletedKeyRow row = rows.get(i);
      List<KeyBlock> free = BlockRefs.release(txn, row.getBlocksList());
      if (free.isEmpty()) {
        txn.delete(OmTable.DELETED_KEYS, keys.get(i));
        continue;
      }
      if (free.size() < row.getBlocksCount()) {
        txn.put(OmTable.DELETED_KEYS, keys.get(i), row.toBuilder().clearBlocks().addAllBlocks(free).build());
      }
      released.add(new DeletedKeyBlocks(keys.get(i), free));
    }
    return released;
  }
}
