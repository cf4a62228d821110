package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;

/**
 * The namespace of a FILE_SYSTEM_OPTIMIZED bucket: directories and files are rows keyed (bucket id, parent id,
 * name), so a directory's children follow it wherever it goes: renaming or deleting a directory changes one row,
 * whatever it holds. A request's related group is the bucket, every directory on its path and its target name;
 * a create never writes its parent, so creates in one directory do not conflict.
 */
final class FsoTree {
  private FsoTree() {
  }

  /**
   * Where a path leads: the directories that exist along it and what its last component is.
   *
   * @param parentId the id of the deepest existing directory before the last component (the bucket for the root)
   * @param missingFrom index of the first missing parent directory, or -1 when every parent exists
   */
  record Resolved(List<String> parts, List<DirectoryRow> ancestors, long parentId, int missingFrom,
      Optional<DirectoryRow> dir, Optional<FileRow> file) {
    boolean parentsExist() {
      return missingFrom < 0;
    }

    boolean exists() {
      return dir.isPresent() || file.isPresent();
    }

    String path() {
      return Names.join(parts);
    }
  }

  static Resolved resolve(Txn txn, BucketRow bucket, List<String> parts) throws OmException {
    return resolve(txn, bucket, parts, true);
  }

  /**
   * @param recordFile whether the last component's file row is read (and joins the read set); not for an
   *     overwrite, which replaces whatever file is there at commit (then {@code file} is always empty)
   */
  static Resolved resolve(Txn txn, BucketRow bucket, List<String> parts, boolean recordFile) throws OmException {
    long b = bucket.getObjectId();
    long parent = b;
    List<DirectoryRow> ancestors = new ArrayList<>();
    for (int i = 0; i < parts.size() - 1; i++) {
      Optional<DirectoryRow> dir = txn.get(OmTable.DIRECTORIES, OmDbKeys.child(b, parent, parts.get(i)),
          DirectoryRow.parser());
      if (dir.isEmpty()) {
        if (txn.get(OmTable.FILES, OmDbKeys.child(b, parent, parts.get(i)), FileRow.parser()).isPresent()) {
          throw new OmException(OmResult.NOT_A_DIRECTORY, Names.join(parts.subList(0, i + 1)) + " in "
              + name(bucket) + " is a file");
        }
        return new Resolved(parts, ancestors, parent, i, Optional.empty(), Optional.empty());
      }
      ancestors.add(dir.get());
      parent = dir.get().getObjectId();
    }
    if (parts.isEmpty()) {
      return new Resolved(parts, ancestors, b, -1, Optional.empty(), Optional.empty());
    }
    String last = parts.get(parts.size() - 1);
    Optional<DirectoryRow> dir = txn.get(OmTable.DIRECTORIES, OmDbKeys.child(b, parent, last), DirectoryRow.parser());
    Optional<FileRow> file = dir.isPresent() || !recordFile ? Optional.empty()
        : txn.get(OmTable.FILES, OmDbKeys.child(b, parent, last), FileRow.parser());
    return new Resolved(parts, ancestors, parent, -1, dir, file);
  }

  /** Whether {@code dir} holds nothing; either answer is checked again at commit. */
  static boolean isEmpty(Txn txn, BucketRow bucket, DirectoryRow dir) throws OmException {
    byte[] children = OmDbKeys.childrenOf(bucket.getObjectId(), dir.getObjectId());
    return !txn.hasAny(OmTable.DIRECTORIES, children) && !txn.hasAny(OmTable.FILES, children);
  }

  /**
   * Whether S3 clients see {@code dir}'s folder marker: unless one deleted it while the directory held something.
   * A directory emptied otherwise since (by the Hadoop FileSystem, a rename) shows again, so that S3 can see and
   * delete what would else be an empty directory nobody can list.
   */
  static boolean markerShown(Txn txn, BucketRow bucket, DirectoryRow dir) throws OmException {
    return !dir.getMarkerDeleted() || isEmpty(txn, bucket, dir);
  }

  /** mkdir -p: the directory and any missing parents; an existing directory is returned as it is. */
  static KeyInfo mkdirs(Txn txn, BucketRow bucket, String path, String owner) throws OmException {
    List<String> parts = Names.split(path);
    if (parts.isEmpty()) {
      return Infos.root(bucket);
    }
    Resolved r = resolve(txn, bucket, parts);
    if (r.dir().isPresent() && r.dir().get().getMarkerDeleted()) {
      DirectoryRow marked = r.dir().get().toBuilder().setMarkerDeleted(false).build();
      txn.put(OmTable.DIRECTORIES, OmDbKeys.child(bucket.getObjectId(), r.parentId(), marked.getName()), marked);
      return Infos.directory(bucket, r.path(), marked);
    }
    if (r.dir().isPresent()) {
      return Infos.directory(bucket, r.path(), r.dir().get());
    }
    if (r.file().isPresent()) {
      throw new OmException(OmResult.FILE_ALREADY_EXISTS, r.path() + " in " + name(bucket) + " is a file");
    }
    int from = r.parentsExist() ? parts.size() - 1 : r.missingFrom();
    DirectoryRow last = createDirectories(txn, bucket, parts, from, parts.size(), r.parentId(), owner);
    return Infos.directory(bucket, r.path(), last);
  }

  /** Creates directories {@code parts[from..to)} under {@code parentId}; returns the deepest. */
  static DirectoryRow createDirectories(Txn txn, BucketRow bucket, List<String> parts, int from, int to,
      long parentId, String owner) throws OmException {
    DirectoryRow row = null;
    long parent = parentId;
    for (int i = from; i < to; i++) {
      row = DirectoryRow.newBuilder().setObjectId(txn.newObjectId()).setParentId(parent).setName(parts.get(i))
          .setOwner(owner.isEmpty() ? bucket.getOwner() : owner).setCreationTimeMs(txn.nowMillis())
          .setModificationTimeMs(txn.nowMillis())
          .addAllAcls(PrefixAcls.inheritedBy(txn, bucket, Names.join(parts.subList(0, i + 1)))).build();
      txn.put(OmTable.DIRECTORIES, OmDbKeys.child(bucket.getObjectId(), parent, parts.get(i)), row);
      parent = row.getObjectId();
    }
    Usage.add(txn, bucket, 0, to - from);
    return row;
  }

  static KeyInfo status(Txn txn, BucketRow bucket, String path) throws OmException {
    Resolved r = resolve(txn, bucket, Names.split(path));
    if (r.parts().isEmpty()) {
      return Infos.root(bucket);
    }
    if (r.dir().isPresent()) {
      return Infos.directory(bucket, r.path(), r.dir().get());
    }
    if (r.file().isPresent()) {
      return Infos.file(bucket, r.path(), r.file().get());
    }
    throw notFound(bucket, r.path());
  }

  static KeyInfo lookup(Txn txn, BucketRow bucket, String path) throws OmException {
    Resolved r = resolve(txn, bucket, Names.split(path));
    if (r.dir().isPresent() || r.parts().isEmpty()) {
      throw new OmException(OmResult.NOT_A_FILE, r.path() + " in " + name(bucket) + " is a directory");
    }
    return Infos.file(bucket, r.path(), r.file().orElseThrow(() -> notFound(bucket, r.path())));
  }

  /** One directory's entries in name order, directories and files merged; a file lists as itself. */
  static ListStatusResponse list(Txn txn, BucketRow bucket, String path, String startAfter, int max)
      throws OmException {
    Resolved r = resolve(txn, bucket, Names.split(path));
    if (r.file().isPresent()) {
      return ListStatusResponse.newBuilder().addEntries(Infos.file(bucket, r.path(), r.file().get())).build();
    }
    if (!r.parts().isEmpty() && r.dir().isEmpty()) {
      throw notFound(bucket, r.path());
    }
    long dirId = r.parts().isEmpty() ? bucket.getObjectId() : r.dir().get().getObjectId();
    int limit = Listing.pageSize(max);
    byte[] prefix = OmDbKeys.childrenOf(bucket.getObjectId(), dirId);
    byte[] from = Listing.from(prefix, startAfter.isEmpty() ? null
        : OmDbKeys.child(bucket.getObjectId(), dirId, startAfter));
    String base = r.path().isEmpty() ? "" : r.path() + "/";
    List<Entry> dirs = new ArrayList<>();
    txn.scan(OmTable.DIRECTORIES, prefix, from, DirectoryRow.parser(), (k, row) -> dirs.add(new Entry(k,
        Infos.directory(bucket, base + row.getName(), row))) && dirs.size() <= limit);
    List<Entry> files = new ArrayList<>();
    txn.scan(OmTable.FILES, prefix, from, FileRow.parser(), (k, row) -> files.add(new Entry(k,
        Infos.file(bucket, base + row.getName(), row))) && files.size() <= limit);
    return merge(dirs, files, limit);
  }

  private record Entry(byte[] key, KeyInfo info) {
  }

  private static ListStatusResponse merge(List<Entry> dirs, List<Entry> files, int limit) {
    Listing.Page<KeyInfo> page = new Listing.Page<>(limit);
    int d = 0;
    int f = 0;
    while (d < dirs.size() || f < files.size()) {
      boolean takeDir = f >= files.size()
          || d < dirs.size() && Arrays.compareUnsigned(dirs.get(d).key(), files.get(f).key()) < 0;
      Entry next = takeDir ? dirs.get(d++) : files.get(f++);
      if (!page.add(next.info())) {
        break;
      }
    }
    return ListStatusResponse.newBuilder().addAllEntries(page.items()).setTruncated(page.truncated()).build();
  }

  static OmException notFound(BucketRow bucket, String path) {
    return new OmException(OmResult.KEY_NOT_FOUND, path + " not found in " + name(bucket));
  }

  static String name(BucketRow bucket) {
    return bucket.getVolume() + "/" + bucket.getName();
  }
}
