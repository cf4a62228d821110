package org.tropos.om.rpc;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.tropos.common.acl.PolicyDocument;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.acl.S3Actions;
import org.tropos.common.acl.S3Policies;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.RequestConditions;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.om.acl.Authorizer;
import org.tropos.om.acl.PosixPermissions;
import org.tropos.om.acl.Requester;
import org.tropos.om.acl.Resource;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.VolumeInfo;

/**
 * The access check of each OM request, before anything is read for the caller or changed: the caller (its user,
 * groups and whether it administers the OM) must hold the right the request needs on its volume, bucket or key, as
 * the {@link Authorizer} decides. A request for a key that does not exist is checked on what it does there, and
 * answers that the key is missing without changing anything. With {@code ozone.acl.enabled} false every caller
 * may do everything.
 *
 * <p>Each check in a bucket also names the S3 action the request is ({@link S3Actions}), and the bucket's S3 policy
 * and the identity policies attached to the caller and its groups decide first, as S3 decides ({@link S3Policies}):
 * a statement that denies the caller the action refuses it whatever the ACLs grant, one that allows it grants it
 * whatever they refuse, and the ACLs decide what the policies do not speak of (creating and listing buckets too).
 * Administrators are above policies. The request's conditions are those the S3 gateway sends for the S3 request it
 * serves, else those of the call ({@link RequestConditions}).
 *
 * <p>The check reads what it decides on in a transaction of its own: a change of an ACL that commits while a
 * request runs applies from the next request (as a POSIX file system checks at open).
 */
final class AccessChecks {
  /**
   * What lets a caller that may not read a key's data see its properties (mayReadKey): the S3 operations that read
   * or change them, and the right each needs where the bucket's policy is silent.
   */
  private static final List<PropertyAccess> PROPERTY_ACCESS = List.of(
      new PropertyAccess(AclRight.RIGHT_READ_ACL, S3Actions.GET_OBJECT_ACL),
      new PropertyAccess(AclRight.RIGHT_WRITE_ACL, S3Actions.PUT_OBJECT_ACL),
      new PropertyAccess(AclRight.RIGHT_WRITE, S3Actions.PUT_OBJECT_TAGGING),
      new PropertyAccess(AclRight.RIGHT_WRITE, S3Actions.DELETE_OBJECT_TAGGING),
      new PropertyAccess(AclRight.RIGHT_READ, S3Actions.GET_OBJECT_TAGGING),
      new PropertyAccess(AclRight.RIGHT_READ, S3Actions.GET_OBJECT_ATTRIBUTES));

  private record PropertyAccess(AclRight right, String action) {
  }

  private final Authorizer authorizer;
  private final boolean enabled;
  private final Administrators administrators;
  private final String s3Volume;
  private final Namespace namespace;
  private final S3Policies policies = new S3Policies();

  AccessChecks(Authorizer authorizer, boolean enabled, Administrators administrators, String s3Volume,
      Namespace namespace) {
    this.authorizer = authorizer;
    this.enabled = enabled;
    this.administrators = administrators;
    this.s3Volume = s3Volume;
    this.namespace = namespace;
  }

  /** The caller of the request being served. */
  Requester caller() {
    String user = Callers.current();
    return new Requester(user, administrators.groupsOf(user), administrators.contains(user),
        administrators.reads(user));
  }

  boolean enabled() {
    return enabled;
  }

  /** A right on the target of an ACL request: {@code action} the S3 action it is, when the target is in a bucket. */
  void require(Resource on, AclRight right, String action) throws OmException {
    if (enabled) {
      require(caller(), on, right, action, on.key() == null ? "" : on.key().getName());
    }
  }

  /** Fails unless {@code who} may do {@code action} on {@code path} ("": the bucket) of {@code on}'s bucket. */
  private void require(Requester who, Resource on, AclRight right, String action, String path)
      throws OmException {
    PolicyDocument.Decision decided = policy(who, on, action, path);
    if (decided == PolicyDocument.Decision.DENY) {
      throw new OmException(OmResult.PERMISSION_DENIED, who(who.user()) + " is denied " + action + " on "
          + name(on) + " by its bucket's policy or its identity policies");
    }
    if (decided == PolicyDocument.Decision.NONE && !authorizer.allows(who, on, right)) {
      throw denied(right, on);
    }
  }

  /**
   * What the policy of {@code on}'s bucket and the identity policies of {@code who} say of it doing {@code action}
   * on {@code path} there.
   */
  private PolicyDocument.Decision policy(Requester who, Resource on, String action, String path)
      throws OmException {
    BucketInfo bucket = on.bucket();
    if (bucket == null || who.administrator()) {
      return PolicyDocument.Decision.NONE;
    }
    List<String> identity = namespace.identities().policiesOf(who.user(), who.groups());
    if (bucket.getPolicy().isEmpty() && identity.isEmpty()) {
      return PolicyDocument.Decision.NONE;
    }
    // The action on a version when the S3 request named one: the gateway names versions in its own calls too.
    Map<String, List<String>> conditions = RequestConditions.current();
    List<String> version = conditions.get(S3Actions.VERSION_ID);
    PolicyRequest request = new PolicyRequest(who.user(), S3Actions.onVersion(action, version == null ? ""
        : version.get(0)), PolicyRequest.resource(bucket.getName(), path), conditions);
    if (on.key() != null) {
      request = request.withTagsOf(on.key().getMetadataMap());
    }
    return policies.decide(bucket, identity, request);
  }

  /** Whether {@code who} may do {@code action} on {@code on}, as {@link #require} decides. */
  private boolean permits(Requester who, Resource on, AclRight right, String action) throws OmException {
    return policy(who, on, action, on.key() == null ? "" : on.key().getName())
        .allows(() -> authorizer.allows(who, on, right));
  }

  /**
   * Creating bucket {@code bucket} in {@code volume}: as the caller's identity policies say of s3:CreateBucket, else
   * (where they are silent) CREATE on the volume.
   */
  void createBucket(String volume, String bucket) throws OmException {
    if (enabled) {
      Requester who = caller();
      Resource on = namespace.volumeResource(volume);
      if (!identity(who, S3Actions.CREATE_BUCKET, bucket).allows(() -> authorizer.allows(who, on,
          AclRight.RIGHT_CREATE))) {
        throw denied(AclRight.RIGHT_CREATE, on);
      }
    }
  }

  /**
   * Whether the caller lists every bucket of {@code volume} (else only its own): as its identity policies say of
   * s3:ListAllMyBuckets, else (where they are silent) LIST on the volume. A policy that denies it refuses the
   * listing.
   */
  boolean listsAllBuckets(String volume) throws OmException {
    if (!enabled) {
      return true;
    }
    Requester who = caller();
    PolicyDocument.Decision decided = identity(who, S3Actions.LIST_ALL_MY_BUCKETS, "");
    if (decided == PolicyDocument.Decision.DENY) {
      throw new OmException(OmResult.PERMISSION_DENIED, who(who.user()) + " is denied "
          + S3Actions.LIST_ALL_MY_BUCKETS + " by its identity policies");
    }
    Resource on = namespace.volumeResource(volume);
    return decided.allows(() -> authorizer.allows(who, on, AclRight.RIGHT_LIST));
  }

  /** What {@code who}'s identity policies say of {@code action} on {@code resource}, which no bucket's policy has. */
  private PolicyDocument.Decision identity(Requester who, String action, String resource) throws OmException {
    if (who.administrator()) {
      return PolicyDocument.Decision.NONE;
    }
    List<String> identity = namespace.identities().policiesOf(who.user(), who.groups());
    return identity.isEmpty() ? PolicyDocument.Decision.NONE : policies.decide(null, identity, new PolicyRequest(
        who.user(), action, resource, RequestConditions.current()));
  }

  void volume(String volume, AclRight right) throws OmException {
    if (enabled) {
      Resource on = namespace.volumeResource(volume);
      if (!authorizer.allows(caller(), on, right)) {
        throw denied(right, on);
      }
    }
  }

  /** A right on a bucket itself (a link, not its source), for S3 action {@code action}. */
  void bucket(String volume, String bucket, AclRight right, String action) throws OmException {
    if (enabled) {
      require(caller(), namespace.bucketResource(volume, bucket), right, action, "");
    }
  }

  /**
   * A right on the bucket that holds the keys of {@code volume/bucket} (a link's source), or on the prefix holding
   * {@code key}, for S3 action {@code action} on {@code key} ("": on the bucket).
   */
  void keys(String volume, String bucket, String key, AclRight right, String action) throws OmException {
    if (enabled) {
      require(caller(), namespace.keysResource(volume, bucket, key), right, action, key);
    }
  }

  /**
   * Listing the keys of {@code volume/bucket} whose names start with {@code prefix}: LIST on the bucket, or on a
   * prefix holding {@code prefix}.
   */
  void listKeys(String volume, String bucket, String prefix) throws OmException {
    if (enabled) {
      require(caller(), namespace.keysResource(volume, bucket, prefix), AclRight.RIGHT_LIST, S3Actions.LIST_BUCKET,
          "");
    }
  }

  /**
   * Creating {@code path}: CREATE on the bucket holding the keys and, in an FSO bucket, what the POSIX bits of its
   * parent directory ask ({@link PosixPermissions}).
   */
  void create(String volume, String bucket, String path) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, path);
      Requester who = caller();
      require(who, on.holder(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT, path);
      posix(who, on, PosixPermissions.Access.CREATE, path);
    }
  }

  /** Deleting (or renaming away) a version of a key, a file or a directory: DELETE on it, and its parent's bits. */
  void delete(String volume, String bucket, String key, String versionId) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, key, versionId);
      if (on.key() != null) {
        Requester who = caller();
        require(who, on, AclRight.RIGHT_DELETE, S3Actions.DELETE_OBJECT, key);
        posix(who, on, PosixPermissions.Access.DELETE, key);
      }
    }
  }

  /** Listing a directory of an FSO bucket: LIST on the bucket or on a prefix holding it, and the directory's bits. */
  void list(String volume, String bucket, String path) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, path);
      Requester who = caller();
      require(who, path.isEmpty() ? on.holder() : namespace.keysResource(volume, bucket, path + "/"),
          AclRight.RIGHT_LIST, S3Actions.LIST_BUCKET, "");
      posix(who, on, PosixPermissions.Access.LIST, path);
    }
  }

  /** Fails when the POSIX bits of {@code on}'s path refuse {@code who} {@code access}. */
  private static void posix(Requester who, Resource on, PosixPermissions.Access access, String path)
      throws OmException {
    Optional<String> missing = PosixPermissions.refusal(who, on.posix(), access);
    if (missing.isPresent()) {
      throw new OmException(OmResult.PERMISSION_DENIED, who(who.user()) + " lacks " + missing.get()
          + " (POSIX bits) for " + access.name().toLowerCase(Locale.ROOT) + " " + on.bucket().getVolume() + "/"
          + on.bucket().getName() + "/" + path);
    }
  }

  /**
   * Changing a file's or directory's attributes: WRITE on it; its bits or group only by its owner (HDFS's rule),
   * its owner only by an administrator.
   */
  void setAttributes(SetFileAttributesRequest r) throws OmException {
    Requester caller = caller();
    if (!enabled || caller.administrator()) {
      return;
    }
    if (r.hasOwner()) {
      throw new OmException(OmResult.PERMISSION_DENIED, "only the OM's administrators change the owner of a file"
          + " or directory (as only HDFS's superuser does)");
    }
    Resource on = namespace.keyResource(r.getVolume(), r.getBucket(), r.getPath());
    if (on.key() == null) {
      return;
    }
    require(caller, on, AclRight.RIGHT_WRITE, S3Actions.PUT_OBJECT_ACL, r.getPath());
    posix(caller, on, PosixPermissions.Access.TRAVERSE, r.getPath());
    if ((r.hasPermission() || r.hasGroup()) && !on.key().getOwner().equals(caller.user())) {
      throw new OmException(OmResult.PERMISSION_DENIED, "only the owner of " + r.getPath() + " ('"
          + on.key().getOwner() + "') changes its permission or group");
    }
  }

  /**
   * A right on a version of a key ("" = the latest) or on a file or directory, when there is one, for S3 action
   * {@code action} (on the latest version; the version's own action when one is named).
   */
  void key(String volume, String bucket, String key, String versionId, AclRight right, String action)
      throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, key, versionId);
      if (on.key() != null) {
        require(caller(), on, right, action, key);
      }
    }
  }

  /**
   * A volume as the caller may create it: any, for an administrator; the S3 volume for any other user with an
   * identity (the gateway creates it on its first bucket), owned by the OM's user and with no ACL of the caller's.
   */
  VolumeInfo volumeToCreate(VolumeInfo volume) throws OmException {
    Requester caller = caller();
    if (!enabled || caller.administrator()) {
      return volume;
    }
    if (!volume.getName().equals(s3Volume) || caller.anonymous()) {
      throw new OmException(OmResult.PERMISSION_DENIED, "only the OM's administrators (ozone.administrators) create"
          + " volumes");
    }
    return VolumeInfo.newBuilder().setName(s3Volume).setOwner(Callers.localUser()).build();
  }

  /**
   * Whether the caller may read the key's data. One that may not but holds another right on it (its ACL, its tags)
   * sees its properties without its blocks (the S3 gateway reads a key's owner and ACL for GetObjectAcl); one that
   * holds none is refused.
   */
  boolean mayReadKey(String volume, String bucket, String key, String versionId) throws OmException {
    if (!enabled) {
      return true;
    }
    Resource on = namespace.keyResource(volume, bucket, key, versionId);
    if (on.key() == null) {
      return true;
    }
    Requester who = caller();
    if (permits(who, on, AclRight.RIGHT_READ, S3Actions.GET_OBJECT)) {
      posix(who, on, PosixPermissions.Access.READ, key);
      return true;
    }
    for (PropertyAccess other : PROPERTY_ACCESS) {
      if (permits(who, on, other.right(), other.action())) {
        return false;
      }
    }
    throw denied(AclRight.RIGHT_READ, on);
  }

  /** A file's or directory's status is the business of who may read it or list its bucket (as ls shows it). */
  void checkStatusReadable(String volume, String bucket, String path) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, path);
      Requester who = caller();
      if (on.key() != null && !permits(who, on, AclRight.RIGHT_READ, S3Actions.GET_OBJECT)
          && !permits(who, on.holder(), AclRight.RIGHT_LIST, S3Actions.LIST_BUCKET)) {
        throw denied(AclRight.RIGHT_READ, on);
      }
      posix(who, on, PosixPermissions.Access.TRAVERSE, path);
    }
  }

  /** Fails unless the caller has an identity. */
  void requireIdentified(String what) throws OmException {
    if (enabled && Callers.current().isEmpty()) {
      throw new OmException(OmResult.PERMISSION_DENIED, who("") + " may not " + what);
    }
  }

  /**
   * The owner of what the caller creates: the one it names if it administers the OM, else itself whatever it names
   * (as Ozone takes the caller's user): a client names its local user, which need not be the user it proved.
   */
  String owner(String requested) {
    if (!enabled) {
      return requested;
    }
    Requester caller = caller();
    return caller.administrator() ? requested : caller.user();
  }

  /**
   * Fails unless a key opened before was opened for the caller (the open key a writer carries back names its
   * owner): for itself, or for an anonymous caller for the bucket's owner, as OpenKey opens them; an administrator
   * commits any.
   */
  void requireOpenedFor(String owner, String volume, String bucket) throws OmException {
    Requester caller = caller();
    if (!enabled || caller.administrator()) {
      return;
    }
    String expected = caller.anonymous() ? namespace.keyResource(volume, bucket, "").bucket().getOwner()
        : caller.user();
    if (!owner.equals(expected)) {
      throw new OmException(OmResult.PERMISSION_DENIED, "this key was opened for user '" + owner + "', not for the"
          + " caller");
    }
  }

  /**
   * Whether the call comes over the S3 gateway's certificate. The gateway reads volumes' and buckets' properties for
   * the requests it serves, whoever sent them: it needs a bucket's owner, ACL and CORS rules to serve even an
   * unsigned request.
   */
  static boolean fromGateway() {
    CertificateSubject peer = PeerRoles.PEER.get();
    return peer != null && peer.role() == ServiceRole.S3G;
  }

  static OmException denied(AclRight right, Resource on) {
    return new OmException(OmResult.PERMISSION_DENIED, who(Callers.current()) + " lacks "
        + right.name().substring("RIGHT_".length()) + " on " + name(on));
  }

  private static String who(String user) {
    return user.isEmpty() ? "an anonymous caller" : "user '" + user + "'";
  }

  private static String name(Resource on) {
    return switch (on.type()) {
      case OBJECT_VOLUME -> "volume " + on.volume().getName();
      case OBJECT_BUCKET -> "bucket " + on.volume().getName() + "/" + on.bucket().getName();
      default -> "key " + on.bucket().getVolume() + "/" + on.bucket().getName() + "/" + on.key().getName();
    };
  }
}
