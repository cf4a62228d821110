package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.OpenKeyRow;

/** The keys of an OBJECT_STORE bucket: flat names, keyed (bucket id, bucket id, name) in the keys table. */
final class FlatKeys {
  private FlatKeys() {
  }

  private static byte[] key(BucketRow bucket, String name) {
    return OmDbKeys.child(bucket.getObjectId(), bucket.getObjectId(), name);
  }

  private static Optional<FileRow> get(Txn txn, BucketRow bucket, String name) throws OmException {
    return txn.get(OmTable.KEYS, key(bucket, name), FileRow.parser());
  }

  static KeyInfo commit(Txn txn, BucketRow bucket, OpenKeyRow open, CommitKeyRequest request) throws OmException {
    String name = open.getPath();
    boolean committedBefore = false;
    if (open.getNoOverwrite()) {
      Optional<FileRow> existing = get(txn, bucket, name);
      committedBefore = existing.isPresent() && existing.get().getObjectId() == open.getOpenId();
      if (existing.isPresent() && !committedBefore) {
        throw new OmException(OmResult.FILE_ALREADY_EXISTS, name + " already exists in " + FsoTree.name(bucket));
      }
    }
    FileRow file = OpenKeys.toFile(txn, open, bucket.getObjectId(), name, request);
    OpenKeys.commit(txn, bucket, open, OmTable.KEYS, key(bucket, name), name, file, committedBefore);
    return Infos.file(bucket, name, file);
  }

  static KeyInfo lookup(Txn txn, BucketRow bucket, String name) throws OmException {
    return Infos.file(bucket, name, get(txn, bucket, name).orElseThrow(() -> FsoTree.notFound(bucket, name)));
  }

  static ListKeysResponse list(Txn txn, BucketRow bucket, String prefix, String startAfter, int max)
      throws OmException {
    Listing.Page<KeyInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] p = key(bucket, prefix);
    byte[] from = Listing.from(p, startAfter.isEmpty() ? null : key(bucket, startAfter));
    txn.scan(OmTable.KEYS, p, from, FileRow.parser(), (k, row) -> page.add(Infos.file(bucket, row.getName(), row)));
    return ListKeysResponse.newBuilder().addAllKeys(page.items()).setTruncated(page.truncated()).build();
  }

  static void delete(Txn txn, BucketRow bucket, String name) throws OmException {
    FileRow file = get(txn, bucket, name).orElseThrow(() -> FsoTree.notFound(bucket, name));
    DeletedKeys.remove(txn, bucket, OmTable.KEYS, key(bucket, name), name, file);
  }

  static void rename(Txn txn, BucketRow bucket, String from, String to) throws OmException {
    Names.checkKey(to);
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
