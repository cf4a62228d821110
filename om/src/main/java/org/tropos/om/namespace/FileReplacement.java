package org.tropos.om.namespace;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Replacement;
import org.tropos.om.occ.WriteSet;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.DeletedKeyRow;
import org.tropos.proto.om.db.FileRow;

/**
 * A committed key in place of whatever key has its name at commit: the old key's blocks are queued for deletion
 * and its usage freed then, by the committer. Overwrites of one name (an S3 PUT, a Hadoop create with overwrite)
 * therefore never conflict, and each frees exactly the key it replaced.
 */
final class FileReplacement implements Replacement {
  private final FileRow file;
  private final String bucketKey;
  private final String fullPath;
  private final long deletedTimeMs;

  FileReplacement(FileRow file, String bucketKey, String fullPath, long deletedTimeMs) {
    this.file = file;
    this.bucketKey = bucketKey;
    this.fullPath = fullPath;
    this.deletedTimeMs = deletedTimeMs;
  }

  @Override
  public Message replace(byte[] currentPayload, Effects effects) throws OmException {
    if (currentPayload != null) {
      FileRow old = parse(currentPayload);
      // The same key committed again (a writer retrying its commit) holds the same blocks: keep them.
      if (old.getBlocksCount() > 0 && old.getObjectId() != file.getObjectId()) {
        effects.put(OmTable.DELETED_KEYS, OmDbKeys.ids(effects.txId(), old.getObjectId()), DeletedKeyRow.newBuilder()
            .setPath(fullPath).addAllBlocks(old.getBlocksList()).setDeletedTimeMs(deletedTimeMs).build());
      }
      effects.addUsage(new WriteSet.UsageDelta(bucketKey, -old.getSize(), -1, 0, 0));
    }
    return file;
  }

  private FileRow parse(byte[] payload) throws OmException {
    try {
      return FileRow.parseFrom(payload);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "unreadable key row " + fullPath + ": " + e.getMessage());
    }
  }
}
