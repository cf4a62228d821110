package org.tropos.om.namespace;

import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DeletedDirectoryRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/** Changes of an FSO bucket's namespace: commit of a written file, delete, rename (one row each). */
final class FsoChanges {
  private FsoChanges() {
  }

  /** Makes an open key a file: its parent is resolved again now, so a file follows a renamed parent. */
  static KeyInfo commit(Txn txn, BucketRow bucket, OpenKeyRow open, CommitKeyRequest request) throws OmException {
    List<String> parts = Names.split(open.getPath());
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, parts, Conditions.onWrite(open, request));
    long parent = r.parentId();
    if (!r.parentsExist()) {
      if (!open.getCreateParents()) {
        throw new OmException(OmResult.DIRECTORY_NOT_FOUND, "the parent of " + r.path() + " in "
            + FsoTree.name(bucket) + " does not exist");
      }
      parent = FsoTree.createDirectories(txn, bucket, parts, r.missingFrom(), parts.size() - 1, parent,
          open.getOwner()).getObjectId();
    }
    if (r.dir().isPresent()) {
      throw new OmException(OmResult.NOT_A_FILE, r.path() + " in " + FsoTree.name(bucket) + " is a directory");
    }
    boolean committedBefore = r.file().isPresent() && r.file().get().getObjectId() == open.getOpenId();
    Conditions.checkWrite(open, request, FsoTree.name(bucket) + "/" + r.path(), r.file(), committedBefore);
    FileRow file = OpenKeys.toFile(txn, bucket, open, parent, parts.get(parts.size() - 1), request);
    OpenKeys.commit(txn, bucket, open, OmTable.FILES, OmDbKeys.child(bucket.getObjectId(), parent,
        parts.get(parts.size() - 1)), r.path(), file, committedBefore);
    return Infos.file(bucket, r.path(), file);
  }

  /**
   * A file, or a directory: at once, its contents purged in the background; non-empty only if recursive. A path
   * ending in '/' names only a directory, and with {@code fileOnly} a path names only a file (S3's keys).
   *
   * <p>With {@code fileOnly}, as S3 deletes: a directory that holds something loses only its folder marker
   * ({@code marker_deleted}) and stays while it holds anything; a delete that empties such a directory takes it
   * too, and so on up. So a client that deletes a tree in any order (S3A, a page of keys at a time, markers after
   * files) leaves nothing behind.
   */
  static void delete(Txn txn, BucketRow bucket, String path, boolean recursive, boolean fileOnly)
      throws OmException {
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, Names.split(path));
    if (r.parts().isEmpty()) {
      throw new OmException(OmResult.INVALID_PATH, "cannot delete the root of " + FsoTree.name(bucket)
          + ": delete the bucket");
    }
    boolean directoryOnly = path.endsWith("/");
    if ((directoryOnly && r.file().isPresent()) || (fileOnly && !directoryOnly && r.dir().isPresent())) {
      throw FsoTree.notFound(bucket, path);
    }
    byte[] key = OmDbKeys.child(bucket.getObjectId(), r.parentId(), r.parts().get(r.parts().size() - 1));
    if (r.file().isPresent()) {
      DeletedKeys.remove(txn, bucket, OmTable.FILES, key, r.path(), r.file().get());
    } else {
      DirectoryRow dir = r.dir().orElseThrow(() -> FsoTree.notFound(bucket, r.path()));
      if (!recursive && !FsoTree.isEmpty(txn, bucket, dir)) {
        if (!fileOnly) {
          throw new OmException(OmResult.DIRECTORY_NOT_EMPTY, r.path() + " in " + FsoTree.name(bucket)
              + " is not empty");
        }
        if (!dir.getMarkerDeleted()) {
          txn.put(OmTable.DIRECTORIES, key, dir.toBuilder().setMarkerDeleted(true).build());
        }
        return;
      }
      removeDirectory(txn, bucket, key, dir, r.path());
    }
    if (fileOnly) {
      removeEmptiedWithoutMarker(txn, bucket, r);
    }
  }

  /** The ancestors of what {@code r} names that lost their marker and now hold nothing, nearest first, go. */
  private static void removeEmptiedWithoutMarker(Txn txn, BucketRow bucket, FsoTree.Resolved r)
      throws OmException {
    for (int i = r.ancestors().size() - 1; i >= 0; i--) {
      DirectoryRow ancestor = r.ancestors().get(i);
      if (!ancestor.getMarkerDeleted() || !FsoTree.isEmpty(txn, bucket, ancestor)) {
        return;
      }
      removeDirectory(txn, bucket, OmDbKeys.child(bucket.getObjectId(), ancestor.getParentId(), ancestor.getName()),
          ancestor, Names.join(r.parts().subList(0, i + 1)));
    }
  }

  /** Removes the directory row at {@code key}; whatever it still holds is purged in the background. */
  private static void removeDirectory(Txn txn, BucketRow bucket, byte[] key, DirectoryRow dir, String path)
      throws OmException {
    txn.delete(OmTable.DIRECTORIES, key);
    txn.put(OmTable.DELETED_DIRECTORIES, OmDbKeys.ids(bucket.getObjectId(), dir.getObjectId()),
        DeletedDirectoryRow.newBuilder().setBucketId(bucket.getObjectId()).setObjectId(dir.getObjectId())
            .setPath(FsoTree.name(bucket) + "/" + path).setDeletedTimeMs(txn.nowMillis())
            .setBucketKey(Usage.key(bucket)).build());
    Usage.add(txn, bucket, 0, -1);
  }

  /**
   * Renames a file or directory to exactly {@code to} (whose parent must exist and which must not exist): one
   * row moves, whatever a directory holds. Moving a directory into its own subtree is refused; since the
   * destination's parents are part of the read set, two concurrent moves into each other's subtree cannot both
   * commit.
   */
  static void rename(Txn txn, BucketRow bucket, String from, String to) throws OmException {
    List<String> src = Names.split(from);
    List<String> dst = Names.split(to);
    if (src.isEmpty() || dst.isEmpty()) {
      throw new OmException(OmResult.INVALID_PATH, "cannot rename the root of " + FsoTree.name(bucket));
    }
    FsoTree.Resolved s = FsoTree.resolve(txn, bucket, src);
    if (!s.exists()) {
      throw FsoTree.notFound(bucket, s.path());
    }
    if (src.equals(dst)) {
      return;
    }
    FsoTree.Resolved d = FsoTree.resolve(txn, bucket, dst);
    if (!d.parentsExist()) {
      throw new OmException(OmResult.DIRECTORY_NOT_FOUND, "the parent of " + d.path() + " in "
          + FsoTree.name(bucket) + " does not exist");
    }
    if (d.exists()) {
      throw new OmException(OmResult.FILE_ALREADY_EXISTS, d.path() + " already exists in " + FsoTree.name(bucket));
    }
    byte[] oldKey = OmDbKeys.child(bucket.getObjectId(), s.parentId(), src.get(src.size() - 1));
    String newName = dst.get(dst.size() - 1);
    byte[] newKey = OmDbKeys.child(bucket.getObjectId(), d.parentId(), newName);
    if (s.dir().isPresent()) {
      long id = s.dir().get().getObjectId();
      if (d.ancestors().stream().anyMatch(a -> a.getObjectId() == id)) {
        throw new OmException(OmResult.INVALID_PATH, "cannot move " + s.path() + " into its own subtree ("
            + d.path() + ")");
      }
      txn.delete(OmTable.DIRECTORIES, oldKey);
      txn.put(OmTable.DIRECTORIES, newKey, s.dir().get().toBuilder().setParentId(d.parentId()).setName(newName)
          .setModificationTimeMs(txn.nowMillis()).build());
    } else {
      txn.delete(OmTable.FILES, oldKey);
      txn.put(OmTable.FILES, newKey, s.file().get().toBuilder().setParentId(d.parentId()).setName(newName)
          .setModificationTimeMs(txn.nowMillis()).build());
    }
  }
}
