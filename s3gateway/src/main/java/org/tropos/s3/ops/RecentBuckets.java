package org.tropos.s3.ops;

import org.tropos.common.util.Clock;
import org.tropos.common.util.ShortMemory;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.ExpectedBucket;

/**
 * Buckets read from the OM in the last moments, so that a PUT need not read its bucket each time. Safe to act on
 * only because the OM checks, when the key is opened, that the bucket still has the owner, ACL, policy and access
 * settings the access decision rested on, and the default encryption the write followed ({@link #expectation}); a
 * refusal is never decided on a remembered bucket.
 *
 * <p>Thread-safe.
 */
final class RecentBuckets {
  private static final long KEPT_MILLIS = 5_000;
  /** Beyond this many, all are forgotten at once: a gateway writes to few buckets at a time. */
  private static final int MOST = 4_096;

  private final ShortMemory<String, BucketInfo> reads;

  RecentBuckets(Clock clock) {
    this.reads = new ShortMemory<>(clock, KEPT_MILLIS, MOST);
  }

  /** The bucket as read less than {@value #KEPT_MILLIS} ms ago, or null. */
  BucketInfo get(String name) {
    return reads.get(name);
  }

  void remember(BucketInfo bucket) {
    reads.remember(bucket.getName(), bucket);
  }

  /** What OpenKey is to find unchanged in {@code bucket} for an access decision made on it to stand. */
  static ExpectedBucket expectation(BucketInfo bucket) {
    ExpectedBucket.Builder expected = ExpectedBucket.newBuilder().setObjectId(bucket.getObjectId())
        .setOwner(bucket.getOwner()).setAcl(bucket.getAcl()).setGrants(bucket.getGrants())
        .setPolicy(bucket.getPolicy()).setObjectOwnership(bucket.getObjectOwnership());
    if (bucket.hasPublicAccessBlock()) {
      expected.setPublicAccessBlock(bucket.getPublicAccessBlock());
    }
    if (bucket.hasEncryption()) {
      expected.setEncryption(bucket.getEncryption());
    }
    return expected.build();
  }
}
