package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * The keys of an OBJECT_STORE bucket: flat names, keyed (bucket id, bucket id, name) in the keys table. In a bucket
 * whose versioning was ever enabled, writes and deletes go through {@link KeyVersions}, and a key whose latest
 * version is a delete marker reads as absent.
 */
final class FlatKeys {
  private FlatKeys() {
  }

  static byte[] key(BucketRow bucket, String name) {
    return OmDbKeys.child(bucket.getObjectId(), bucket.getObjectId(), name);
  }

  /** The key's latest version unless that is a delete marker; recorded for validation. */
  private static Optional<FileRow> get(Txn txn, BucketRow bucket, String name) throws OmException {
    return txn.get(OmTable.KEYS, key(bucket, name), FileRow.parser()).filter(row -> !row.getDeleteMarker());
  }

  static KeyInfo commit(Txn txn, BucketRow bucket, OpenKeyRow open, CommitKeyRequest request) throws OmException {
    String name = open.getPath();
    FileRow file = OpenKeys.toFile(txn, bucket, open, bucket.getObjectId(), name, request);
    Optional<FileRow> existing = Conditions.onWrite(open, request) ? get(txn, bucket, name) : Optional.empty();
    boolean committedBefore = existing.isPresent() && existing.get().getObjectId() == open.getOpenId();
    Conditions.checkWrite(open, request, FsoTree.name(bucket) + "/" + name, existing, committedBefore);
    if (KeyVersions.versioned(bucket)) {
      return Infos.file(bucket, name, KeyVersions.add(txn, bucket, name, file));
    }
    OpenKeys.commit(txn, bucket, open, OmTable.KEYS, key(bucket, name), name, file, committedBefore);
    return Infos.file(bucket, name, file);
  }

  static KeyInfo lookup(Txn txn, BucketRow bucket, String name) throws OmException {
    return Infos.file(bucket, name, get(txn, bucket, name).orElseThrow(() -> FsoTree.notFound(bucket, name)));
  }

  /**
   * A version of a key ({@code versionId} empty: the latest). A delete marker is answered only if {@code
   * markers}; otherwise the latest being one is KEY_NOT_FOUND and a version being one is DELETE_MARKER.
   */
  static KeyVersions.Located find(Txn txn, BucketRow bucket, String name, String versionId, boolean markers)
      throws OmException {
    KeyVersions.Located found;
    if (versionId.isEmpty()) {
      FileRow latest = txn.get(OmTable.KEYS, key(bucket, name), FileRow.parser())
          .orElseThrow(() -> FsoTree.notFound(bucket, name));
      found = new KeyVersions.Located(OmTable.KEYS, key(bucket, name), latest);
    } else {
      found = KeyVersions.find(txn, bucket, name, versionId);
    }
    if (found.row().getDeleteMarker() && !markers) {
      throw versionId.isEmpty() ? FsoTree.notFound(bucket, name) : new OmException(OmResult.DELETE_MARKER,
          "version " + versionId + " of " + name + " in " + FsoTree.name(bucket) + " is a delete marker");
    }
    return found;
  }

  static ListKeysResponse list(Txn txn, BucketRow bucket, String prefix, String startAfter, int max)
      throws OmException {
    Listing.Page<KeyInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] p = key(bucket, prefix);
    byte[] from = Listing.from(p, startAfter.isEmpty() ? null : key(bucket, startAfter));
    txn.scan(OmTable.KEYS, p, from, FileRow.parser(), (k, row) -> row.getDeleteMarker()
        || page.add(Infos.file(bucket, row.getName(), row)));
    return ListKeysResponse.newBuilder().addAllKeys(page.items()).setTruncated(page.truncated()).build();
  }

  /**
   * Deletes a key: its one version, or in a versioned bucket, with no version id, adds a delete marker; with a
   * version id, deletes that version (nothing when it does not exist, as S3 does).
   */
  static DeleteKeyResponse delete(Txn txn, BucketRow bucket, String name, String versionId, String owner)
      throws OmException {
    if (!versionId.isEmpty()) {
      Optional<FileRow> deleted = KeyVersions.delete(txn, bucket, name, versionId);
      return DeleteKeyResponse.newBuilder().setVersionId(versionId)
          .setDeleteMarker(deleted.map(FileRow::getDeleteMarker).orElse(false)).build();
    }
    if (KeyVersions.versioned(bucket)) {
      FileRow marker = KeyVersions.addDeleteMarker(txn, bucket, name, owner);
      return DeleteKeyResponse.newBuilder().setVersionId(KeyVersions.id(marker)).setDeleteMarker(true).build();
    }
    FileRow file = get(txn, bucket, name).orElseThrow(() -> FsoTree.notFound(bucket, name));
    DeletedKeys.remove(txn, bucket, OmTable.KEYS, key(bucket, name), name, file);
    return DeleteKeyResponse.getDefaultInstance();
  }

  static void rename(Txn txn, BucketRow bucket, String from, String to) throws OmException {
    Names.checkKey(to);
    if (KeyVersions.versioned(bucket)) {
      throw new OmException(OmResult.INVALID_REQUEST, "keys of " + FsoTree.name(bucket) + " are versioned: a"
          + " rename would have to move every version; copy the key and delete it instead");
    }
    FileRow file = get(txn, bucket, from).orElseThrow(() -> FsoTree.notFound(bucket, from));
    if (from.equals(to)) {
      return;
    }
    if (get(txn, bucket, to).isPresent()) {
      throw new OmException(OmResult.FILE_ALREADY_EXISTS, to + " already exists in " + FsoTree.name(bucket));
    }
    txn.delete(OmTable.KEYS, key(bucket, from));
    txn.put(OmTable.KEYS, key(bucket, to), file.toBuilder().setName(to).setModificationTimeMs(txn.nowMillis())
        .build());
  }
}
