package org.tropos.common.acl;

import java.util.ArrayList;
import java.util.List;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclGrants;
import org.tropos.proto.om.AclGroup;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.ObjectOwnership;

/**
 * The grants an S3 ACL makes: a canned ACL stands for grants to groups, the owner and the bucket's owner; grants given
 * one by one stand instead of it. The OM decides access from them and the S3 gateway shows them, so both read them
 * here.
 */
public final class S3AclGrants {
  private S3AclGrants() {
  }

  /** The grants of an ACL on a resource of {@code owner} in a bucket of {@code bucketOwner}. */
  public static List<AclGrant> of(CannedAcl canned, AclGrants given, String owner, String bucketOwner) {
    return given.getGiven() ? given.getGrantsList() : canned(canned, owner, bucketOwner);
  }

  /** The grants a canned ACL stands for: groups' first, then the owner's, then the bucket owner's (as RGW). */
  public static List<AclGrant> canned(CannedAcl acl, String owner, String bucketOwner) {
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

  /**
   * Whether {@code grant}, of an ACL in {@code bucket}, counts at all: ACLs are disabled where the bucket's owner
   * owns every object (Object Ownership BUCKET_OWNER_ENFORCED), and grants to everyone or every signed-in user
   * grant nothing where Block Public Access ignores public ACLs.
   */
  public static boolean counts(AclGrant grant, BucketInfo bucket) {
    return bucket.getObjectOwnership() != ObjectOwnership.BUCKET_OWNER_ENFORCED && !(isPublic(grant)
        && bucket.hasPublicAccessBlock() && bucket.getPublicAccessBlock().getIgnorePublicAcls());
  }

  /** Whether {@code grant} grants everyone or every signed-in user (a group: S3's public grants). */
  public static boolean isPublic(AclGrant grant) {
    return grant.getGranteeCase() == AclGrant.GranteeCase.GROUP;
  }

  /** Whether an ACL grants anything to everyone or every signed-in user (groups alone are public, whoever owns). */
  public static boolean isPublic(CannedAcl canned, AclGrants given) {
    return of(canned, given, "", "").stream().anyMatch(S3AclGrants::isPublic);
  }

  /** Whether an ACL on a bucket of {@code owner} grants its owner alone (what BucketOwnerEnforced needs). */
  public static boolean grantsOwnerAlone(CannedAcl canned, AclGrants given, String owner) {
    return of(canned, given, owner, owner).stream().allMatch(g -> g.getUser().equals(owner));
  }

  /** Whether {@code grant} names a caller: {@code user} ("" for an anonymous one). */
  public static boolean names(AclGrant grant, String user) {
    return switch (grant.getGranteeCase()) {
      case USER -> !user.isEmpty() && grant.getUser().equals(user);
      case GROUP -> grant.getGroup() == AclGroup.ACL_ALL_USERS
          || grant.getGroup() == AclGroup.ACL_AUTHENTICATED_USERS && !user.isEmpty();
      case GRANTEE_NOT_SET -> false;
    };
  }

  public static AclGrant user(String id, AclPermission permission) {
    return AclGrant.newBuilder().setUser(id).setPermission(permission).build();
  }

  public static AclGrant group(AclGroup group, AclPermission permission) {
    return AclGrant.newBuilder().setGroup(group).setPermission(permission).build();
  }
}
