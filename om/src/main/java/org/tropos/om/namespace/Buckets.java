package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.ListBucketsResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.UsageRow;
import org.tropos.proto.om.db.VolumeRow;

/** Buckets: create (in an existing volume), read with usage, list, delete when empty. */
final class Buckets {
  /** What a bucket created without a layout or replication gets. */
  record Defaults(BucketLayout layout, ReplicationFactor factor) {
  }

  private Buckets() {
  }

  static BucketRow require(Txn txn, String volume, String bucket) throws OmException {
    Optional<BucketRow> row = txn.get(OmTable.BUCKETS, OmDbKeys.bucket(volume, bucket), BucketRow.parser());
    if (row.isPresent()) {
      return row.get();
    }
    Volumes.require(txn, volume);
    throw new OmException(OmResult.BUCKET_NOT_FOUND, "bucket " + volume + "/" + bucket + " not found");
  }

  static BucketInfo create(Txn txn, BucketInfo request, Defaults defaults) throws OmException {
    Names.checkBucket(request.getName());
    if (request.getQuotaBytes() < 0 || request.getQuotaNamespace() < 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "quotas must be >= 0 (0 = none)");
    }
    VolumeRow volume = Volumes.require(txn, request.getVolume());
    byte[] key = OmDbKeys.bucket(request.getVolume(), request.getName());
    if (txn.get(OmTable.BUCKETS, key, BucketRow.parser()).isPresent()) {
      throw new OmException(OmResult.BUCKET_ALREADY_EXISTS, "bucket " + request.getVolume() + "/"
          + request.getName() + " already exists");
    }
    BucketLayout layout = request.getLayout() == BucketLayout.BUCKET_LAYOUT_UNSPECIFIED ? defaults.layout()
        : request.getLayout();
    ReplicationFactor factor = request.getFactor() == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED
        ? defaults.factor() : request.getFactor();
    if (layout == BucketLayout.UNRECOGNIZED || factor == ReplicationFactor.UNRECOGNIZED) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown layout or replication factor");
    }
    BucketRow row = BucketRow.newBuilder().setObjectId(txn.newObjectId()).setVolume(request.getVolume())
        .setVolumeId(volume.getObjectId()).setName(request.getName()).setLayout(layout).setFactor(factor)
        .setOwner(request.getOwner().isEmpty() ? volume.getOwner() : request.getOwner())
        .setQuotaBytes(request.getQuotaBytes()).setQuotaNamespace(request.getQuotaNamespace())
        .setCreationTimeMs(txn.nowMillis()).setModificationTimeMs(txn.nowMillis()).build();
    txn.put(OmTable.BUCKETS, key, row);
    return Infos.bucket(row, UsageRow.getDefaultInstance());
  }

  static BucketInfo get(Txn txn, String volume, String bucket) throws OmException {
    BucketRow row = require(txn, volume, bucket);
    return Infos.bucket(row, txn.usage(OmDbKeys.bucket(volume, bucket)));
  }

  static ListBucketsResponse list(Txn txn, String volume, String prefix, String startAfter, int max)
      throws OmException {
    Volumes.require(txn, volume);
    Listing.Page<BucketInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] p = OmDbKeys.bucket(volume, prefix);
    byte[] from = Listing.from(p, startAfter.isEmpty() ? null : OmDbKeys.bucket(volume, startAfter));
    txn.scan(OmTable.BUCKETS, p, from, BucketRow.parser(), (k, row) -> page.add(
        Infos.bucket(row, txn.usage(OmDbKeys.bucket(volume, row.getName())))));
    return ListBucketsResponse.newBuilder().addAllBuckets(page.items()).setTruncated(page.truncated()).build();
  }

  static void delete(Txn txn, String volume, String bucket) throws OmException {
    BucketRow row = require(txn, volume, bucket);
    byte[] contents = OmDbKeys.bucketPrefix(row.getObjectId());
    boolean empty = row.getLayout() == BucketLayout.OBJECT_STORE ? txn.isEmpty(OmTable.KEYS, contents)
        : txn.isEmpty(OmTable.DIRECTORIES, contents) && txn.isEmpty(OmTable.FILES, contents);
    if (!empty) {
      throw new OmException(OmResult.BUCKET_NOT_EMPTY, "bucket " + volume + "/" + bucket + " is not empty");
    }
    txn.delete(OmTable.BUCKETS, OmDbKeys.bucket(volume, bucket));
    txn.delete(OmTable.USAGE, OmDbKeys.bucket(volume, bucket));
  }
}
