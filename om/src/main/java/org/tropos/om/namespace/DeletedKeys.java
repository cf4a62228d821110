package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
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
}
