package org.tropos.om.namespace;

import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/** Keys being written: recorded when opened, invisible until committed. */
final class OpenKeys {
  private OpenKeys() {
  }

  /** Records an open key after checking what can be checked now; commit checks again. */
  static OpenKeyRow open(Txn txn, BucketRow bucket, OpenKeyRequest request) throws OmException {
    if (bucket.getLayout() == BucketLayout.OBJECT_STORE) {
      Names.checkKey(request.getKey());
    } else {
      txn.unrecorded(t -> {
        checkFsoTarget(t, bucket, request);
        return null;
      });
    }
    ReplicationFactor factor = request.getFactor() == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED
        ? bucket.getFactor() : request.getFactor();
    OpenKeyRow row = OpenKeyRow.newBuilder().setOpenId(txn.newObjectId()).setBucketId(bucket.getObjectId())
        .setPath(bucket.getLayout() == BucketLayout.OBJECT_STORE ? request.getKey()
            : Names.join(Names.split(request.getKey())))
        .setFactor(factor).setOwner(request.getOwner().isEmpty() ? bucket.getOwner() : request.getOwner())
        .setCreationTimeMs(txn.nowMillis()).putAllMetadata(request.getMetadataMap())
        .setNoOverwrite(request.getNoOverwrite()).setCreateParents(request.getCreateParents()).build();
    txn.put(OmTable.OPEN_KEYS, OmDbKeys.ids(bucket.getObjectId(), row.getOpenId()), row);
    return row;
  }

  private static void checkFsoTarget(Txn txn, BucketRow bucket, OpenKeyRequest request) throws OmException {
    List<String> parts = Names.split(request.getKey());
    if (parts.isEmpty()) {
      throw new OmException(OmResult.INVALID_PATH, "a key needs a name");
    }
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, parts);
    if (r.dir().isPresent()) {
      throw new OmException(OmResult.NOT_A_FILE, r.path() + " in " + FsoTree.name(bucket) + " is a directory");
    }
    if (r.file().isPresent() && request.getNoOverwrite()) {
      throw new OmException(OmResult.FILE_ALREADY_EXISTS, r.path() + " already exists in " + FsoTree.name(bucket));
    }
    if (!r.parentsExist() && !request.getCreateParents()) {
      throw new OmException(OmResult.DIRECTORY_NOT_FOUND, "the parent of " + r.path() + " in "
          + FsoTree.name(bucket) + " does not exist");
    }
  }

  /**
   * Stores a committed key and retires its open key. Without overwrite the caller has checked the name is free
   * (a recorded read, so a concurrent create conflicts); with it, the key replaces at commit whatever is there.
   */
  static void commit(Txn txn, BucketRow bucket, OpenKeyRow open, OmTable table, byte[] key, String path,
      FileRow file) {
    if (open.getNoOverwrite()) {
      txn.put(table, key, file);
    } else {
      txn.replace(table, key, new FileReplacement(file, Usage.key(bucket), FsoTree.name(bucket) + "/" + path,
          txn.nowMillis()));
    }
    txn.delete(OmTable.OPEN_KEYS, OmDbKeys.ids(bucket.getObjectId(), open.getOpenId()));
    Usage.add(txn, bucket, file.getSize(), 1);
  }

  static OpenKeyRow require(Txn txn, BucketRow bucket, long openId) throws OmException {
    return txn.get(OmTable.OPEN_KEYS, OmDbKeys.ids(bucket.getObjectId(), openId), OpenKeyRow.parser())
        .orElseThrow(() -> new OmException(OmResult.OPEN_KEY_NOT_FOUND, "no key open as " + openId + " in "
            + FsoTree.name(bucket) + " (committed already, or never opened)"));
  }

  /** The committed row of an open key: the writer's block list, which must add up to the size. */
  static FileRow toFile(Txn txn, OpenKeyRow open, long parentId, String name, CommitKeyRequest request)
      throws OmException {
    long sum = 0;
    for (KeyBlock b : request.getBlocksList()) {
      if (b.getLength() <= 0) {
        throw new OmException(OmResult.INVALID_REQUEST, "block " + b.getBlockId() + " has length " + b.getLength());
      }
      sum += b.getLength();
    }
    if (sum != request.getSize()) {
      throw new OmException(OmResult.INVALID_REQUEST, "the blocks hold " + sum + " bytes but the key's size is "
          + request.getSize());
    }
    return FileRow.newBuilder().setObjectId(open.getOpenId()).setParentId(parentId).setName(name)
        .setSize(request.getSize()).addAllBlocks(request.getBlocksList()).setFactor(open.getFactor())
        .setOwner(open.getOwner()).setCreationTimeMs(open.getCreationTimeMs()).setModificationTimeMs(txn.nowMillis())
        .putAllMetadata(open.getMetadataMap()).build();
  }
}
