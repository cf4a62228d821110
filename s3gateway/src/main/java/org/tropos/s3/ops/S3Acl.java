package org.tropos.s3.ops;

import java.util.ArrayList;
import java.util.List;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.AclGroup;
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
    return given.getGiven() ? given.getGrantsList() : grantsOf(canned, owner, bucketOwner);
  }

  /** Whether this ACL grants {@code caller} {@code permission} (or full control). */
  boolean allows(Caller caller, AclPermission permission, String owner, String bucketOwner) {
    for (AclGrant grant : grants(owner, bucketOwner)) {
      if ((grant.getPermission() == permission || grant.getPermission() == AclPermission.ACL_FULL_CONTROL)
          && names(grant, caller)) {
        return true;
      }
    }
    return false;
  }

  private static boolean names(AclGrant grant, Caller caller) {
    return switch (grant.getGranteeCase()) {
      case USER -> !caller.anonymous() && grant.getUser().equals(caller.accessId());
      case GROUP -> grant.getGroup() == AclGroup.ACL_ALL_USERS
          || (grant.getGroup() == AclGroup.ACL_AUTHENTICATED_USERS && !caller.anonymous());
      case GRANTEE_NOT_SET -> false;
    };
  }

  /** The grants a canned ACL stands for: groups' first, then the owner's, then the bucket owner's (as RGW). */
  static List<AclGrant> grantsOf(CannedAcl acl, String owner, String bucketOwner) {
    List<AclGrant> grants = new ArrayList<>();
    switch (acl) {
      case ACL_PUBLIC_READ -> grants.add(group(AclGroup.ACL_ALL_USERS, AclPermission.ACL_READ));
      case ACL_PUBLIC_READ_WRITE -> grants.addAll(List.of(group(AclGroup.ACL_ALL_USERS, AclPermission.ACL_READ),
          group(AclGroup.ACL_ALL_USERS, AclPermission.ACL_WRITE)));
      case ACL_AUTHENTICATED_READ -> grants.add(group(AclGroup.ACL_AUTHENTICATED_USERS, AclPermission.ACL_READ));
      default -> {
      }
    }
    grants.add(user(owner, AclPermission.ACL_FULL_CONTROL));
    boolean otherOwner = !owner.equals(bucketOwner);
    if (acl == CannedAcl.ACL_BUCKET_OWNER_READ && otherOwner) {
      grants.add(user(bucketOwner, AclPermission.ACL_READ));
    } else if (acl == CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL && otherOwner) {
      grants.add(user(bucketOwner, AclPermission.ACL_FULL_CONTROL));
    }
    return grants;
  }

  static AclGrant user(String id, AclPermission permission) {
    return AclGrant.newBuilder().setUser(id).setPermission(permission).build();
  }

  static AclGrant group(AclGroup group, AclPermission permission) {
    return AclGrant.newBuilder().setGroup(group).setPermission(permission).build();
  }
}
