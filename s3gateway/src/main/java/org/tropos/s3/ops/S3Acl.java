package org.tropos.s3.ops;

import java.util.List;
import org.tropos.common.acl.S3AclGrants;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.KeyInfo;
import org.tropos.s3.auth.Caller;

/**
 * A bucket's or an object's S3 ACL: a canned ACL, or grants given one by one that stand instead of it. The owner's
 * rights do not come from here: an owner keeps them whatever its ACL lists (S3 lets an owner always read and
 * write its ACL; this gateway lets it do everything, see {@link Access}).
 */
record S3Acl(CannedAcl canned, AclGrants given) {
  static final S3Acl PRIVATE = canned(CannedAcl.ACL_PRIVATE);

  static S3Acl canned(CannedAcl acl) {
    return new S3Acl(acl, AclGrants.getDefaultInstance());
  }

  static S3Acl granting(List<AclGrant> grants) {
    return new S3Acl(CannedAcl.ACL_PRIVATE, AclGrants.newBuilder().setGiven(true).addAllGrants(grants).build());
  }

  static S3Acl of(BucketInfo bucket) {
    return new S3Acl(bucket.getAcl(), bucket.getGrants());
  }

  static S3Acl of(KeyInfo key) {
    return new S3Acl(key.getAcl(), key.getGrants());
  }

  /** The grants this ACL makes on a resource of {@code owner} in a bucket of {@code bucketOwner}. */
  List<AclGrant> grants(String owner, String bucketOwner) {
    return S3AclGrants.of(canned, given, owner, bucketOwner);
  }

  /**
   * Whether this ACL, of a resource of {@code owner} in {@code bucket}, grants {@code caller} {@code permission} (or
   * full control), with the grants that count there ({@link S3AclGrants#counts}).
   */
  boolean allows(Caller caller, AclPermission permission, String owner, BucketInfo bucket) {
    for (AclGrant grant : grants(owner, bucket.getOwner())) {
      if ((grant.getPermission() == permission || grant.getPermission() == AclPermission.ACL_FULL_CONTROL)
          && S3AclGrants.counts(grant, bucket) && S3AclGrants.names(grant, caller.accessId())) {
        return true;
      }
    }
    return false;
  }
}
