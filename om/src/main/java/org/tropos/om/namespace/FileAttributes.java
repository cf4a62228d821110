package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;

/**
 * Hadoop's setTimes, setOwner and setPermission of a file or directory in an FSO bucket: its one row is
 * rewritten. The row was read on the way, so a concurrent replacement of the file makes the request re-run.
 */
final class FileAttributes {
  private static final int MAX_PERMISSION = 07777;

  private FileAttributes() {
  }

  static KeyInfo set(Txn txn, BucketRow bucket, SetFileAttributesRequest r) throws OmException {
    if (r.hasPermission() && (r.getPermission() < 0 || r.getPermission() > MAX_PERMISSION)) {
      throw new OmException(OmResult.INVALID_REQUEST, "permission " + Integer.toOctalString(r.getPermission())
          + " is not 0 to 7777 (octal)");
    }
    FsoTree.Resolved res = FsoTree.resolve(txn, bucket, Names.split(r.getPath()));
    if (res.parts().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a bucket's root has the bucket's own attributes");
    }
    byte[] key = OmDbKeys.child(bucket.getObjectId(), res.parentId(), res.parts().get(res.parts().size() - 1));
    if (res.dir().isPresent()) {
      DirectoryRow.Builder dir = res.dir().get().toBuilder();
      if (r.hasModificationTimeMs()) {
        dir.setModificationTimeMs(r.getModificationTimeMs());
      }
      if (r.hasAccessTimeMs()) {
        dir.setAccessTimeMs(r.getAccessTimeMs());
      }
      if (r.hasOwner()) {
        dir.setOwner(r.getOwner());
      }
      if (r.hasGroup()) {
        dir.setGroup(r.getGroup());
      }
      if (r.hasPermission()) {
        dir.setPermission(r.getPermission());
      }
      txn.put(OmTable.DIRECTORIES, key, dir.build());
      return Infos.directory(bucket, res.path(), dir.build());
    }
    FileRow.Builder file = res.file().orElseThrow(() -> FsoTree.notFound(bucket, res.path())).toBuilder();
    if (r.hasModificationTimeMs()) {
      file.setModificationTimeMs(r.getModificationTimeMs());
    }
    if (r.hasAccessTimeMs()) {
      file.setAccessTimeMs(r.getAccessTimeMs());
    }
    if (r.hasOwner()) {
      file.setOwner(r.getOwner());
    }
    if (r.hasGroup()) {
      file.setGroup(r.getGroup());
    }
    if (r.hasPermission()) {
      file.setPermission(r.getPermission());
    }
    txn.put(OmTable.FILES, key, file.build());
    return Infos.file(bucket, res.path(), file.build());
  }
}
