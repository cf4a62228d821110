package org.tropos.om.namespace;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import java.util.Map;
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
  static final int MAX_PERMISSION = 07777;

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
      DirectoryRow dir = apply(res.dir().get().toBuilder(), r).build();
      txn.put(OmTable.DIRECTORIES, key, dir);
      return Infos.directory(bucket, res.path(), dir);
    }
    FileRow file = apply(res.file().orElseThrow(() -> FsoTree.notFound(bucket, res.path())).toBuilder(), r)
        .build();
    txn.put(OmTable.FILES, key, file);
    return Infos.file(bucket, res.path(), file);
  }

  /**
   * Sets the request's fields on a directory or file row: both name them alike (modification_time_ms,
   * access_time_ms, owner, group, permission), so one copy by field name serves both.
   */
  private static <B extends Message.Builder> B apply(B row, SetFileAttributesRequest r) {
    for (Map.Entry<Descriptors.FieldDescriptor, Object> field : r.getAllFields().entrySet()) {
      Descriptors.FieldDescriptor target = row.getDescriptorForType().findFieldByName(field.getKey().getName());
      if (target != null && field.getKey().hasPresence()) {
        row.setField(target, field.getValue());
      }
    }
    return row;
  }
}
