package org.tropos.om.namespace;

import org.tropos.om.db.OmDbKeys;
import org.tropos.om.occ.Txn;
import org.tropos.om.occ.WriteSet;
import org.tropos.proto.om.db.BucketRow;

/** Usage deltas of a bucket, checked against its quotas by the committer. */
final class Usage {
  private Usage() {
  }

  static void add(Txn txn, BucketRow bucket, long bytes, long names) {
    if (bytes != 0 || names != 0) {
      txn.addUsage(new WriteSet.UsageDelta(new String(OmDbKeys.bucket(bucket.getVolume(), bucket.getName()),
          java.nio.charset.StandardCharsets.UTF_8), bytes, names, bucket.getQuotaBytes(), bucket.getQuotaNamespace()));
    }
  }
}
