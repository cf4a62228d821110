package org.tropos.om.namespace;

import java.nio.ByteBuffer;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketVersioning;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;

/**
 * The versions of the keys of an OBJECT_STORE bucket whose versioning was ever enabled (S3 versioning). A key's
 * latest version stays in {@code keys}, so reading, listing and copying latest versions cost one seek as without
 * versioning; its other versions, delete markers included, are rows of {@code keyVersions} keyed by the key's
 * name and the version's order inverted, so that a key's versions are one range, newest first.
 *
 * <p>Every change reads the key's latest row, so two writers of one key conflict and one runs again: a version's
 * place is the order its transaction committed in. Keys written before versioning was enabled are the "null"
 * version (order 0: the oldest). A version's blocks are freed when that version is deleted, never when it only
 * stops being the latest; blocks shared with copies go when their last reference does ({@link BlockRefs}).
 */
final class KeyVersions {
  /** The id of the version a write gets while versioning is not enabled. */
  static final String NULL_ID = "null";
  private static final int ID_LENGTH = 16;

  private KeyVersions() {
  }

  /** Where a version of a key is stored, and the version. */
  record Located(OmTable table, byte[] rowKey, FileRow row) {
  }

  static boolean versioned(BucketRow bucket) {
    return bucket.getVersioning() != BucketVersioning.VERSIONING_NEVER_ENABLED;
  }

  /** The S3 version id of a version. */
  static String id(FileRow row) {
    return row.getVersioned() ? String.format("%0" + ID_LENGTH + "x", row.getVersionSeq()) : NULL_ID;
  }

  /**
   * Makes {@code version} (a written key, a copy, a delete marker) the key's latest version. With versioning
   * enabled it gets an id of its own and the previous latest version stays; otherwise it is the "null" version
   * and replaces the one there was. The same writer committing its key again (an hsync) replaces its own row.
   */
  static FileRow add(Txn txn, BucketRow bucket, String name, FileRow version) throws OmException {
    boolean enabled = bucket.getVersioning() == BucketVersioning.VERSIONING_ENABLED;
    byte[] latestKey = FlatKeys.key(bucket, name);
    Optional<FileRow> latest = txn.get(OmTable.KEYS, latestKey, FileRow.parser());
    if (latest.isPresent() && latest.get().getObjectId() == version.getObjectId()) {
      FileRow again = version.toBuilder().setVersionSeq(latest.get().getVersionSeq())
          .setVersioned(latest.get().getVersioned()).build();
      txn.put(OmTable.KEYS, latestKey, again);
      Usage.add(txn, bucket, again.getSize() - latest.get().getSize(), 0);
      return again;
    }
    FileRow added = version.toBuilder().setVersionSeq(txn.newObjectId()).setVersioned(enabled).build();
    if (latest.isPresent()) {
      if (!enabled && !latest.get().getVersioned()) {
        free(txn, bucket, name, latest.get());
      } else {
        txn.put(OmTable.KEY_VERSIONS, versionKey(bucket, name, latest.get().getVersionSeq()), latest.get());
      }
    }
    if (!enabled && latest.isPresent() && latest.get().getVersioned()) {
      Optional<Located> olderNull = olderNull(txn, bucket, name);
      if (olderNull.isPresent()) {
        txn.delete(OmTable.KEY_VERSIONS, olderNull.get().rowKey());
        free(txn, bucket, name, olderNull.get().row());
      }
    }
    txn.put(OmTable.KEYS, latestKey, added);
    Usage.add(txn, bucket, added.getSize(), names(added));
    return added;
  }

  /** Adds a delete marker as the key's latest version (S3 DeleteObject without a version id). */
  static FileRow addDeleteMarker(Txn txn, BucketRow bucket, String name, String owner) throws OmException {
    long now = txn.nowMillis();
    return add(txn, bucket, name, FileRow.newBuilder().setObjectId(txn.newObjectId())
        .setParentId(bucket.getObjectId()).setName(name).setOwner(owner.isEmpty() ? bucket.getOwner() : owner)
        .setCreationTimeMs(now).setModificationTimeMs(now).setDeleteMarker(true).build());
  }

  /** The version {@code versionId} of a key; VERSION_NOT_FOUND if there is none. */
  static Located find(Txn txn, BucketRow bucket, String name, String versionId) throws OmException {
    return locate(txn, bucket, name, versionId).orElseThrow(() -> new OmException(OmResult.VERSION_NOT_FOUND,
        "version " + versionId + " of " + name + " not found in " + FsoTree.name(bucket)));
  }

  /**
   * Deletes a version for good, freeing its blocks; when it was the latest, the newest of the others becomes the
   * latest. Returns the version deleted, or empty when there was no such version (nothing changes).
   */
  static Optional<FileRow> delete(Txn txn, BucketRow bucket, String name, String versionId) throws OmException {
    Optional<Located> found = locate(txn, bucket, name, versionId);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Located version = found.get();
    txn.delete(version.table(), version.rowKey());
    free(txn, bucket, name, version.row());
    if (version.table() == OmTable.KEYS) {
      promoteNewest(txn, bucket, name);
    }
    return Optional.of(version.row());
  }

  /** The version of a key with id {@code versionId}, the latest included, recorded for validation. */
  private static Optional<Located> locate(Txn txn, BucketRow bucket, String name, String versionId)
      throws OmException {
    byte[] latestKey = FlatKeys.key(bucket, name);
    Optional<FileRow> latest = txn.get(OmTable.KEYS, latestKey, FileRow.parser());
    if (latest.isPresent() && id(latest.get()).equals(versionId)) {
      return Optional.of(new Located(OmTable.KEYS, latestKey, latest.get()));
    }
    if (latest.isEmpty() || !versioned(bucket)) {
      checkId(versionId);
      return Optional.empty();
    }
    if (versionId.equals(NULL_ID)) {
      return olderNull(txn, bucket, name);
    }
    byte[] key = versionKey(bucket, name, parse(versionId));
    return txn.get(OmTable.KEY_VERSIONS, key, FileRow.parser()).filter(FileRow::getVersioned)
        .map(row -> new Located(OmTable.KEY_VERSIONS, key, row));
  }

  /** The "null" version among a key's older versions (there is at most one), recorded for validation. */
  private static Optional<Located> olderNull(Txn txn, BucketRow bucket, String name) throws OmException {
    byte[] key = olderNullKey(txn, bucket, name);
    if (key == null) {
      return Optional.empty();
    }
    return txn.get(OmTable.KEY_VERSIONS, key, FileRow.parser()).map(row -> new Located(OmTable.KEY_VERSIONS, key,
        row));
  }

  /** Where the "null" version among a key's older versions is, or null; a scan, not recorded. */
  static byte[] olderNullKey(Txn txn, BucketRow bucket, String name) throws OmException {
    byte[] prefix = versionsOf(bucket, name);
    byte[][] found = {null};
    txn.scan(OmTable.KEY_VERSIONS, prefix, prefix, FileRow.parser(), (k, row) -> {
      if (!row.getVersioned()) {
        found[0] = k;
        return false;
      }
      return true;
    });
    return found[0];
  }

  /** Moves the newest of a key's older versions, if any, to be its latest. */
  private static void promoteNewest(Txn txn, BucketRow bucket, String name) throws OmException {
    byte[] prefix = versionsOf(bucket, name);
    byte[][] newest = {null};
    txn.scan(OmTable.KEY_VERSIONS, prefix, prefix, FileRow.parser(), (k, row) -> {
      newest[0] = k;
      return false;
    });
    if (newest[0] == null) {
      return;
    }
    Optional<FileRow> row = txn.get(OmTable.KEY_VERSIONS, newest[0], FileRow.parser());
    if (row.isPresent()) {
      txn.delete(OmTable.KEY_VERSIONS, newest[0]);
      txn.put(OmTable.KEYS, FlatKeys.key(bucket, name), row.get());
    }
  }

  /** Queues a version's blocks for deletion and frees what it counted. */
  private static void free(Txn txn, BucketRow bucket, String name, FileRow version) throws OmException {
    DeletedKeys.queue(txn, FsoTree.name(bucket) + "/" + name + "#" + id(version), version.getBlocksList());
    Usage.free(txn, Usage.key(bucket), version.getSize(), names(version));
  }

  /** A delete marker holds no data and names nothing. */
  private static long names(FileRow version) {
    return version.getDeleteMarker() ? 0 : 1;
  }

  /** Where the older version of order {@code seq} of a key is stored. */
  static byte[] versionKey(BucketRow bucket, String name, long seq) {
    byte[] prefix = versionsOf(bucket, name);
    return ByteBuffer.allocate(prefix.length + Long.BYTES).put(prefix).putLong(~seq).array();
  }

  /** The prefix of every older version of a key (names hold no NUL, so one key's versions never mix with another's). */
  static byte[] versionsOf(BucketRow bucket, String name) {
    byte[] key = FlatKeys.key(bucket, name);
    return ByteBuffer.allocate(key.length + 1).put(key).put((byte) 0).array();
  }

  /** The order of a version from its id; INVALID_REQUEST for an id no version can have. */
  static long parse(String versionId) throws OmException {
    checkId(versionId);
    return Long.parseUnsignedLong(versionId, 16);
  }

  private static void checkId(String versionId) throws OmException {
    if (!versionId.equals(NULL_ID) && !versionId.matches("[0-9a-f]{" + ID_LENGTH + "}")) {
      throw new OmException(OmResult.INVALID_REQUEST, "invalid version id '" + versionId + "'");
    }
  }
}
