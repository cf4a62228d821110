package org.tropos.om.namespace;

import java.util.List;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;

/**
 * A version of a key and where it is stored, whatever its bucket's layout: a version of an OBJECT_STORE key, or the
 * one ("null") version of a file of an FSO bucket.
 */
final class Keys {
  private Keys() {
  }

  /** The version {@code versionId} of {@code name} ("" = the latest); see {@link FlatKeys#find} for markers. */
  static KeyVersions.Located find(Txn txn, BucketRow bucket, String name, String versionId, boolean markers)
      throws OmException {
    if (bucket.getLayout() == BucketLayout.OBJECT_STORE) {
      return FlatKeys.find(txn, bucket, name, versionId, markers);
    }
    List<String> parts = Names.split(name);
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, parts);
    if (r.dir().isPresent() || parts.isEmpty() || (name.endsWith("/") && r.file().isPresent())) {
      throw new OmException(OmResult.NOT_A_FILE, r.path() + " in " + FsoTree.name(bucket) + " is a directory");
    }
    if (r.file().isEmpty()) {
      throw FsoTree.notFound(bucket, r.path());
    }
    if (!versionId.isEmpty() && !versionId.equals(KeyVersions.NULL_ID)) {
      KeyVersions.parse(versionId);
      throw new OmException(OmResult.VERSION_NOT_FOUND, "version " + versionId + " of " + r.path() + " not found"
          + " in " + FsoTree.name(bucket) + ": its keys have only the null version");
    }
    return new KeyVersions.Located(OmTable.FILES, OmDbKeys.child(bucket.getObjectId(), r.parentId(),
        parts.get(parts.size() - 1)), r.file().get());
  }

  /** As {@link #find}, markers included, or empty when there is no such key or version. */
  static Optional<KeyVersions.Located> findIfPresent(Txn txn, BucketRow bucket, String name, String versionId)
      throws OmException {
    try {
      return Optional.of(find(txn, bucket, name, versionId, true));
    } catch (OmException e) {
      if (e.result() == OmResult.KEY_NOT_FOUND || e.result() == OmResult.VERSION_NOT_FOUND
          || e.result() == OmResult.DIRECTORY_NOT_FOUND || e.result() == OmResult.NOT_A_DIRECTORY) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** KEY_CHANGED unless {@code row} is the object {@code expectedObjectId} names (0: any object). */
  static void checkExpected(FileRow row, long expectedObjectId, String name) throws OmException {
    if (expectedObjectId != 0 && row.getObjectId() != expectedObjectId) {
      throw new OmException(OmResult.KEY_CHANGED, name + " was replaced since the caller looked it up");
    }
  }

  /** The path of a found version as clients name it. */
  static String path(BucketRow bucket, String name) throws OmException {
    return bucket.getLayout() == BucketLayout.OBJECT_STORE ? name : Names.join(Names.split(name));
  }

  /**
   * A version of a key as clients see it, with its multipart parts if {@code withParts}. In an FSO bucket a name
   * ending in '/' is a directory (S3's folder marker, Ozone's filesystem paths): found only as one.
   */
  static KeyInfo lookup(Txn txn, BucketRow bucket, String name, String versionId, boolean markers,
      boolean withParts) throws OmException {
    if (bucket.getLayout() != BucketLayout.OBJECT_STORE && name.endsWith("/")) {
      return directory(txn, bucket, name, versionId);
    }
    KeyVersions.Located found = find(txn, bucket, name, versionId, markers);
    KeyInfo info = Infos.version(bucket, path(bucket, name), found.row(), found.table() != OmTable.KEY_VERSIONS);
    // An encrypted key's parts are where its readers find each part's encrypted stream: always answered.
    return withParts || found.row().hasEncryption() ? info.toBuilder().addAllParts(found.row().getPartsList()).build()
        : info;
  }

  /**
   * The directory {@code name} (ending in '/') names, as a key of that name (its folder marker); not found if it
   * is not one, or if an S3 client deleted its marker and it still holds something.
   */
  private static KeyInfo directory(Txn txn, BucketRow bucket, String name, String versionId) throws OmException {
    List<String> parts = Names.split(name);
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, parts);
    if (parts.isEmpty() || r.dir().isEmpty() || !FsoTree.markerShown(txn, bucket, r.dir().get())) {
      throw FsoTree.notFound(bucket, name);
    }
    if (!versionId.isEmpty() && !versionId.equals(KeyVersions.NULL_ID)) {
      throw new OmException(OmResult.VERSION_NOT_FOUND, "version " + versionId + " of " + name + " not found in "
          + FsoTree.name(bucket) + ": a directory has only the null version");
    }
    return Infos.directory(bucket, r.path() + "/", r.dir().get());
  }
}
