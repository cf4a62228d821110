package org.tropos.om.namespace;

import org.tropos.common.acl.PolicyDocument;
import org.tropos.common.acl.S3AclGrants;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ObjectOwnership;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.BucketRowOrBuilder;

/**
 * The settings of a bucket that say who may do what there, as S3 has them: its ACL, its policy, its Block Public
 * Access and its Object Ownership, each checked against the others when one changes, as S3 checks them: a public
 * ACL or policy is refused where Block Public Access blocks it, and where the bucket's owner owns every object
 * (BUCKET_OWNER_ENFORCED) the bucket's ACL grants its owner alone.
 */
final class BucketAccessSettings {
  private BucketAccessSettings() {
  }

  static boolean changedBy(SetBucketPropertiesRequest r) {
    return r.hasAcl() || r.getSetPolicy() || r.getSetPublicAccessBlock() || r.hasObjectOwnership();
  }

  /** Applies {@code r}'s changes of these settings to {@code row}, or fails having changed nothing it keeps. */
  static void apply(BucketRow.Builder row, SetBucketPropertiesRequest r) throws OmException {
    if (r.getSetPublicAccessBlock()) {
      if (r.hasPublicAccessBlock()) {
        row.setPublicAccessBlock(r.getPublicAccessBlock());
      } else {
        row.clearPublicAccessBlock();
      }
    }
    if (r.hasAcl()) {
      if (row.getPublicAccessBlock().getBlockPublicAcls() && S3AclGrants.isPublic(r.getAcl(), r.getGrants())) {
        throw new OmException(OmResult.PERMISSION_DENIED, "bucket " + row.getName() + " blocks public ACLs (Block"
            + " Public Access)");
      }
      row.setAcl(r.getAcl()).setGrants(r.getGrants());
    }
    if (r.getSetPolicy()) {
      if (!r.getPolicy().isEmpty() && parse(r.getPolicy(), row.getName()).isPublic()
          && row.getPublicAccessBlock().getBlockPublicPolicy()) {
        throw new OmException(OmResult.PERMISSION_DENIED, "bucket " + row.getName() + " blocks public policies"
            + " (Block Public Access)");
      }
      row.setPolicy(r.getPolicy());
    }
    if (r.hasObjectOwnership()) {
      if (r.getObjectOwnership() == ObjectOwnership.UNRECOGNIZED) {
        throw new OmException(OmResult.INVALID_REQUEST, "unknown Object Ownership");
      }
      row.setObjectOwnership(r.getObjectOwnership());
    }
    checkOwnership(row);
  }

  /** Fails when {@code bucket}'s owner owns every object there (BucketOwnerEnforced) but its ACL grants others. */
  static void checkOwnership(BucketRowOrBuilder bucket) throws OmException {
    if (bucket.getObjectOwnership() == ObjectOwnership.BUCKET_OWNER_ENFORCED
        && !S3AclGrants.grantsOwnerAlone(bucket.getAcl(), bucket.getGrants(), bucket.getOwner())) {
      throw new OmException(OmResult.INVALID_BUCKET_ACL_WITH_OWNERSHIP, "bucket " + bucket.getName() + "'s ACL"
          + " grants others than its owner, who owns every object there (BucketOwnerEnforced)");
    }
  }

  /**
   * Fails when {@code bucket}'s Block Public Access blocks public ACLs and {@code acl} (with {@code given} grants),
   * set on an object, grants everyone or every signed-in user (whoever owns the object: only groups are public):
   * checked where an object's ACL is written (its commit, a multipart upload's start, SetKeyAcl), on the bucket as
   * it is then.
   */
  static void checkObjectAcl(BucketRow bucket, CannedAcl acl, AclGrants given) throws OmException {
    if (bucket.getPublicAccessBlock().getBlockPublicAcls() && S3AclGrants.isPublic(acl, given)) {
      throw new OmException(OmResult.PERMISSION_DENIED, "bucket " + bucket.getName() + " blocks public ACLs (Block"
          + " Public Access)");
    }
  }

  private static PolicyDocument parse(String policy, String bucket) throws OmException {
    try {
      return PolicyDocument.forBucket(policy, bucket);
    } catch (IllegalArgumentException e) {
      throw new OmException(OmResult.MALFORMED_POLICY, e.getMessage());
    }
  }
}
