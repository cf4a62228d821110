package org.tropos.s3.ops;

import org.tropos.common.acl.PolicyDocument;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.acl.S3AclGrants;
import org.tropos.common.acl.S3Policies;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * Who may do what, from the bucket's policy, owners and ACLs ({@link S3Acl}). The OM's administrators may do
 * everything. Then the bucket's policy speaks first of what the caller asks ({@link Caller#asks}, evaluated by
 * {@link S3Policies}): a statement that denies it refuses it, one that allows it grants it. Where the policy is
 * silent, a bucket's owner may do everything in the bucket; an object's writer owns that object. Others get what
 * the bucket's ACL grants ({@code READ}: list its objects; {@code WRITE}: write and delete objects;
 * {@code READ_ACP}/{@code WRITE_ACP}: read/change its ACL) and what an object's ACL grants ({@code READ}: read it;
 * {@code READ_ACP}/{@code WRITE_ACP}). As in S3, reading an object depends on the object's ACL alone, not on the
 * bucket's. The OM decides the same way for the calls the gateway makes, so the two agree.
 */
final class Access {
  private static final S3Policies POLICIES = new S3Policies();

  /** What a request needs of a bucket. */
  enum Permission {
    /** List the objects, read the bucket's settings that S3 shows to readers. */
    READ,
    /** Create, overwrite and delete objects. */
    WRITE,
    /** Read the bucket's ACL. */
    READ_ACP,
    /** Change the bucket's ACL. */
    WRITE_ACP,
    /** Change the bucket's versioning, tags, CORS rules, and delete it: its owner's business. */
    OWNER
  }

  private Access() {
  }

  /** Whether {@code caller} may do what {@code permission} covers on {@code bucket}. */
  static boolean allows(BucketInfo bucket, Caller caller, Permission permission) {
    return policy(bucket, null, caller).allows(() -> aclAllows(bucket, caller, permission));
  }

  private static boolean aclAllows(BucketInfo bucket, Caller caller, Permission permission) {
    if (caller.administrator() || owns(bucket, caller)) {
      return true;
    }
    AclPermission needed = switch (permission) {
      case READ -> AclPermission.ACL_READ;
      case WRITE -> AclPermission.ACL_WRITE;
      case READ_ACP -> AclPermission.ACL_READ_ACP;
      case WRITE_ACP -> AclPermission.ACL_WRITE_ACP;
      case OWNER -> null;
    };
    return needed != null && S3Acl.of(bucket).allows(caller, needed, bucket.getOwner(), bucket);
  }

  static void check(BucketInfo bucket, Caller caller, Permission permission) throws S3Error {
    if (!allows(bucket, caller, permission)) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied: " + (caller.anonymous() ? "an anonymous caller"
          : "user " + S3Error.quote(caller.accessId())) + " may not " + permission.name().toLowerCase(
              java.util.Locale.ROOT) + " bucket " + S3Error.quote(bucket.getName()));
    }
  }

  /**
   * Deleting a version for good (by its id, in a bucket whose versioning was ever set) is the bucket owner's
   * right alone, as in S3: otherwise anyone who may write a public-read-write bucket could erase its history.
   */
  static void checkVersionDelete(BucketInfo bucket, Caller caller, String versionId) throws S3Error {
    if (!versionId.isEmpty() && Versions.shown(bucket) && !allows(bucket, caller, Permission.OWNER)) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied: only the bucket's owner deletes versions of its"
          + " objects");
    }
  }

  /** Whether {@code caller} may read {@code key} (its data, metadata and tags). */
  static boolean mayRead(BucketInfo bucket, KeyInfo key, Caller caller) {
    return granted(bucket, key, caller, AclPermission.ACL_READ);
  }

  /**
   * Whether the bucket's policy allows what {@code caller} asks of {@code key}, or (where it is silent) {@code caller}
   * owns {@code key} (see {@link #mayChange}) or its ACL grants it {@code permission}.
   */
  static boolean granted(BucketInfo bucket, KeyInfo key, Caller caller, AclPermission permission) {
    return policy(bucket, key, caller).allows(() -> owner(bucket, key, caller)
        || S3Acl.of(key).allows(caller, permission, key.getOwner(), bucket));
  }

  /**
   * Whether {@code caller} may change {@code key}'s ACL and tags: as the bucket's policy says, else its owner, the
   * bucket's, an administrator.
   */
  static boolean mayChange(BucketInfo bucket, KeyInfo key, Caller caller) {
    return policy(bucket, key, caller).allows(() -> owner(bucket, key, caller));
  }

  private static boolean owner(BucketInfo bucket, KeyInfo key, Caller caller) {
    return caller.administrator() || owns(bucket, caller)
        || (!caller.anonymous() && key.getOwner().equals(caller.accessId()));
  }

  /**
   * What {@code bucket}'s policy and {@code caller}'s identity policies say of what it asks (of {@code key}, whose
   * tags they may test; null: of no object); nothing for an administrator.
   */
  private static PolicyDocument.Decision policy(BucketInfo bucket, KeyInfo key, Caller caller) {
    PolicyRequest asks = caller.asks();
    if (asks == null || caller.administrator() || bucket.getPolicy().isEmpty() && caller.policies().isEmpty()) {
      return PolicyDocument.Decision.NONE;
    }
    return POLICIES.decide(bucket, caller.policies(), key == null ? asks : asks.withTagsOf(key.getMetadataMap()));
  }

  /** Whether the bucket is public: its ACL grants everyone or every signed-in user, or its policy everyone. */
  static boolean isPublic(BucketInfo bucket) {
    return POLICIES.isPublic(bucket) || S3AclGrants.isPublic(bucket.getAcl(), bucket.getGrants());
  }

  static void checkRead(BucketInfo bucket, KeyInfo key, Caller caller) throws S3Error {
    checkGranted(bucket, key, caller, AclPermission.ACL_READ, "read");
  }

  /** Refuses {@code caller} what {@link #granted} does not allow it on {@code key}: {@code what} it wanted. */
  static void checkGranted(BucketInfo bucket, KeyInfo key, Caller caller, AclPermission permission, String what)
      throws S3Error {
    if (!granted(bucket, key, caller, permission)) {
      throw denied(caller, what, key);
    }
  }

  static void checkChange(BucketInfo bucket, KeyInfo key, Caller caller) throws S3Error {
    if (!mayChange(bucket, key, caller)) {
      throw denied(caller, "change", key);
    }
  }

  private static S3Error denied(Caller caller, String what, KeyInfo key) {
    return S3ErrorCode.ACCESS_DENIED.error("Access Denied: " + (caller.anonymous() ? "an anonymous caller"
        : "user " + S3Error.quote(caller.accessId())) + " may not " + what + " " + S3Error.quote(key.getName()));
  }

  private static boolean owns(BucketInfo bucket, Caller caller) {
    return !caller.anonymous() && bucket.getOwner().equals(caller.accessId());
  }
}
