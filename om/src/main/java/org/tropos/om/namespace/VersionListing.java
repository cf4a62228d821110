package org.tropos.om.namespace;

import java.util.Arrays;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;

/**
 * Every version of a bucket's keys under a prefix (S3 ListObjectVersions): keys in byte order, each key's latest
 * version first, then its others newest first, delete markers included, a page at a time. A page resumes after a
 * key, or after one version of a key. A bucket whose versioning was never enabled lists each key's one version;
 * an FSO bucket's files are listed that way too.
 */
final class VersionListing {
  private VersionListing() {
  }

  static ListKeyVersionsResponse list(Txn txn, BucketRow bucket, String prefix, String keyMarker,
      String versionIdMarker, int max) throws OmException {
    if (bucket.getLayout() != BucketLayout.OBJECT_STORE) {
      ListKeysResponse files = FsoKeyListing.list(txn, bucket, prefix, keyMarker, max);
      return ListKeyVersionsResponse.newBuilder().addAllVersions(files.getKeysList())
          .setTruncated(files.getTruncated()).build();
    }
    Listing.Page<KeyInfo> page = new Listing.Page<>(Listing.pageSize(max));
    flat(txn, bucket, prefix, keyMarker, versionIdMarker, page);
    return ListKeyVersionsResponse.newBuilder().addAllVersions(page.items()).setTruncated(page.truncated()).build();
  }

  private static void flat(Txn txn, BucketRow bucket, String prefix, String keyMarker, String versionIdMarker,
      Listing.Page<KeyInfo> page) throws OmException {
    byte[] keysPrefix = FlatKeys.key(bucket, prefix);
    if (!keyMarker.isEmpty() && !versionIdMarker.isEmpty() && keyMarker.startsWith(prefix)
        && !restOfKey(txn, bucket, keyMarker, versionIdMarker, page)) {
      return;
    }
    byte[] from = Listing.from(keysPrefix, keyMarker.isEmpty() ? null : FlatKeys.key(bucket, keyMarker));
    txn.scan(OmTable.KEYS, keysPrefix, from, FileRow.parser(), (k, latest) ->
        page.add(Infos.version(bucket, latest.getName(), latest, true)) && older(txn, bucket, latest.getName(),
            null, page));
  }

  /** The versions of {@code name} after {@code versionIdMarker}; false once the page is full. */
  private static boolean restOfKey(Txn txn, BucketRow bucket, String name, String versionIdMarker,
      Listing.Page<KeyInfo> page) throws OmException {
    Optional<FileRow> latest = txn.get(OmTable.KEYS, FlatKeys.key(bucket, name), FileRow.parser());
    if (latest.isEmpty()) {
      return true;
    }
    if (KeyVersions.id(latest.get()).equals(versionIdMarker)) {
      return older(txn, bucket, name, null, page);
    }
    byte[] after;
    if (versionIdMarker.equals(KeyVersions.NULL_ID)) {
      after = KeyVersions.olderNullKey(txn, bucket, name);
      if (after == null) {
        return true;
      }
    } else {
      after = KeyVersions.versionKey(bucket, name, KeyVersions.parse(versionIdMarker));
    }
    return older(txn, bucket, name, Arrays.copyOf(after, after.length + 1), page);
  }

  /** Adds the older versions of {@code name} from {@code from} (null: all); false once the page is full. */
  private static boolean older(Txn txn, BucketRow bucket, String name, byte[] from, Listing.Page<KeyInfo> page)
      throws OmException {
    if (!KeyVersions.versioned(bucket)) {
      return true;
    }
    byte[] prefix = KeyVersions.versionsOf(bucket, name);
    boolean[] room = {true};
    txn.scan(OmTable.KEY_VERSIONS, prefix, from == null ? prefix : from, FileRow.parser(), (k, row) -> {
      room[0] = page.add(Infos.version(bucket, name, row, false));
      return room[0];
    });
    return room[0];
  }
}
