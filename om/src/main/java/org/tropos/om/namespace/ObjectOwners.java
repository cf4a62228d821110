package org.tropos.om.namespace;

import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ObjectOwnership;
import org.tropos.proto.om.db.BucketRow;

/**
 * Who owns an object written to a bucket, as the bucket's S3 Object Ownership says: its writer, unless the bucket's
 * owner owns every object there (BUCKET_OWNER_ENFORCED) or those written with the bucket-owner-full-control ACL
 * (BUCKET_OWNER_PREFERRED).
 */
final class ObjectOwners {
  private ObjectOwners() {
  }

  /** The owner of what {@code writer} ("": the bucket's owner) writes with {@code acl} to {@code bucket}. */
  static String of(BucketRow bucket, String writer, CannedAcl acl) {
    boolean toBucketOwner = writer.isEmpty() || bucket.getObjectOwnership() == ObjectOwnership.BUCKET_OWNER_ENFORCED
        || bucket.getObjectOwnership() == ObjectOwnership.BUCKET_OWNER_PREFERRED
        && acl == CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL;
    return toBucketOwner ? bucket.getOwner() : writer;
  }
}
