package org.tropos.om.acl;

import java.util.EnumSet;
import java.util.Set;
import org.tropos.common.acl.S3AclGrants;
import org.tropos.proto.om.AclGrant;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;

/**
 * Ozone's native authorizer, with S3's ACLs beside it. A caller holds a right on a volume, bucket or key when it
 * administers the OM; owns the target or what holds it (a volume's owner holds every right in it, as a bucket's
 * owner does in the bucket, as in Ozone and S3); when an ACCESS entry of the target's native ACL, or of the ACL of a
 * prefix holding it, naming it grants the right (or ALL); or when the target's S3 ACL does ({@link #s3Rights}). A
 * read-only administrator reads, lists and reads the ACL of everything. Every authenticated caller may create buckets
 * in the S3 volume ({@code ozone.s3g.volume.name}), as every S3 user may create buckets.
 *
 * <p>Immutable; thread-safe.
 */
public final class NativeAuthorizer implements Authorizer {
  /** What a read-only administrator holds on everything. */
  private static final Set<AclRight> READ_ONLY = EnumSet.of(AclRight.RIGHT_READ, AclRight.RIGHT_LIST,
      AclRight.RIGHT_READ_ACL);
  private final String s3Volume;

  public NativeAuthorizer(String s3Volume) {
    this.s3Volume = s3Volume;
  }

  @Override
  public boolean allows(Requester who, Resource on, AclRight right) {
    if (who.administrator() || !who.anonymous() && on.ownedBy(who.user())) {
      return true;
    }
    if (who.readOnlyAdministrator() && READ_ONLY.contains(right)) {
      return true;
    }
    if (NativeAcls.grant(on.acls(), who, right) || NativeAcls.grant(on.prefixAcls(), who, right)) {
      return true;
    }
    if (on.key() == null && on.bucket() == null) {
      return right == AclRight.RIGHT_CREATE && !who.anonymous() && on.volume().getName().equals(s3Volume);
    }
    return s3Rights(on, who.user()).contains(right);
  }

  /**
   * The native rights the S3 ACLs grant {@code user} on the target, as S3 gives them. On a bucket: READ lists its
   * keys (and reads its settings), WRITE creates them, READ_ACP and WRITE_ACP read and change its ACL. On a key: its
   * ACL's READ reads it, READ_ACP and WRITE_ACP read and change its ACL; the bucket's WRITE deletes it. What S3 leaves
   * to owners (a bucket's settings, deleting a bucket, a key's tags) no S3 grant gives.
   */
  static Set<AclRight> s3Rights(Resource on, String user) {
    BucketInfo bucket = on.bucket();
    Set<AclRight> rights = EnumSet.noneOf(AclRight.class);
    for (AclGrant grant : S3AclGrants.of(bucket.getAcl(), bucket.getGrants(), bucket.getOwner(),
        bucket.getOwner())) {
      if (S3AclGrants.counts(grant, bucket) && S3AclGrants.names(grant, user)) {
        rights.addAll(on.key() == null ? onBucket(grant.getPermission()) : onKeyFromBucket(grant.getPermission()));
      }
    }
    KeyInfo key = on.key();
    if (key != null) {
      for (AclGrant grant : S3AclGrants.of(key.getAcl(), key.getGrants(), key.getOwner(), bucket.getOwner())) {
        if (S3AclGrants.counts(grant, bucket) && S3AclGrants.names(grant, user)) {
          rights.addAll(onKey(grant.getPermission()));
        }
      }
    }
    return rights;
  }

  private static Set<AclRight> onBucket(AclPermission permission) {
    return switch (permission) {
      case ACL_READ -> EnumSet.of(AclRight.RIGHT_READ, AclRight.RIGHT_LIST);
      case ACL_WRITE -> EnumSet.of(AclRight.RIGHT_CREATE);
      case ACL_READ_ACP -> EnumSet.of(AclRight.RIGHT_READ_ACL);
      case ACL_WRITE_ACP -> EnumSet.of(AclRight.RIGHT_WRITE_ACL);
      case ACL_FULL_CONTROL -> EnumSet.of(AclRight.RIGHT_READ, AclRight.RIGHT_LIST, AclRight.RIGHT_CREATE,
          AclRight.RIGHT_READ_ACL, AclRight.RIGHT_WRITE_ACL);
      default -> EnumSet.noneOf(AclRight.class);
    };
  }

  private static Set<AclRight> onKeyFromBucket(AclPermission permission) {
    return permission == AclPermission.ACL_WRITE || permission == AclPermission.ACL_FULL_CONTROL
        ? EnumSet.of(AclRight.RIGHT_DELETE) : EnumSet.noneOf(AclRight.class);
  }

  private static Set<AclRight> onKey(AclPermission permission) {
    return switch (permission) {
      case ACL_READ -> EnumSet.of(AclRight.RIGHT_READ);
      case ACL_READ_ACP -> EnumSet.of(AclRight.RIGHT_READ_ACL);
      case ACL_WRITE_ACP -> EnumSet.of(AclRight.RIGHT_WRITE_ACL);
      case ACL_FULL_CONTROL -> EnumSet.of(AclRight.RIGHT_READ, AclRight.RIGHT_READ_ACL, AclRight.RIGHT_WRITE_ACL);
      default -> EnumSet.noneOf(AclRight.class);
    };
  }
}
