package org.tropos.om.namespace;

import org.tropos.om.occ.Txn;
import org.tropos.om.occ.WriteSet;
import org.tropos.proto.om.db.BucketRow;

/** Usage deltas of a bucket, checked against its quotas by the committer. */
final class Usage {
  private Usage() {
  }

  static void add(Txn txn, BucketRow bucket, long bytes, long names) {
    if (bytes != 0 || names != 0) {
      txn.addUsage(new WriteSet.UsageDelta(key(bucket), bytes, names, bucket.getQuotaBytes(),
          bucket.getQuotaNamespace()));
    }
  }

  /** Frees usage (no quota to check) of the bucket with this key; none for a null key (a deleted bucket). */
  static void free(Txn txn, String bucketKey, long bytes, long names) {
    if (bucketKey == null) {
      return;
    }
    txn.addUsage(new WriteSet.UsageDelta(bucketKey, -bytes, -names, 0, 0));
  }

  static String key(BucketRow bucket) {
    return bucket.getVolume() + "/" + bucket.getName();
  }
}
