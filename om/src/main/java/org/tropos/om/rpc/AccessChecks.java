package org.tropos.om.rpc;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.om.acl.Authorizer;
import org.tropos.om.acl.PosixPermissions;
import org.tropos.om.acl.Requester;
import org.tropos.om.acl.Resource;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.AclRight;
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
 * <p>The check reads what it decides on in a transaction of its own: a change of an ACL that commits while a
 * request runs applies from the next request (as a POSIX file system checks at open).
 */
final class AccessChecks {
  private final Authorizer authorizer;
  private final boolean enabled;
  private final Administrators administrators;
  private final String s3Volume;
  private final Namespace namespace;

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

  boolean allows(Resource on, AclRight right) {
    return !enabled || authorizer.allows(caller(), on, right);
  }

  void require(Resource on, AclRight right) throws OmException {
    if (enabled) {
      require(caller(), on, right);
    }
  }

  private void require(Requester who, Resource on, AclRight right) throws OmException {
    if (!authorizer.allows(who, on, right)) {
      throw denied(right, on);
    }
  }

  void volume(String volume, AclRight right) throws OmException {
    if (enabled) {
      require(namespace.volumeResource(volume), right);
    }
  }

  /** A right on a bucket itself (a link, not its source). */
  void bucket(String volume, String bucket, AclRight right) throws OmException {
    if (enabled) {
      require(namespace.bucketResource(volume, bucket), right);
    }
  }

  /** A right on the bucket that holds the keys of {@code volume/bucket} (a link's source). */
  void keys(String volume, String bucket, AclRight right) throws OmException {
    if (enabled) {
      require(namespace.keyResource(volume, bucket, ""), right);
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
      require(who, on.holder(), AclRight.RIGHT_CREATE);
      posix(who, on, PosixPermissions.Access.CREATE, path);
    }
  }

  /** Deleting (or renaming away) a version of a key, a file or a directory: DELETE on it, and its parent's bits. */
  void delete(String volume, String bucket, String key, String versionId) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, key, versionId);
      if (on.key() != null) {
        Requester who = caller();
        require(who, on, AclRight.RIGHT_DELETE);
        posix(who, on, PosixPermissions.Access.DELETE, key);
      }
    }
  }

  /** Listing a directory of an FSO bucket: LIST on the bucket, and the directory's bits. */
  void list(String volume, String bucket, String path) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, path);
      Requester who = caller();
      require(who, on.holder(), AclRight.RIGHT_LIST);
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
    require(caller, on, AclRight.RIGHT_WRITE);
    posix(caller, on, PosixPermissions.Access.TRAVERSE, r.getPath());
    if ((r.hasPermission() || r.hasGroup()) && !on.key().getOwner().equals(caller.user())) {
      throw new OmException(OmResult.PERMISSION_DENIED, "only the owner of " + r.getPath() + " ('"
          + on.key().getOwner() + "') changes its permission or group");
    }
  }

  /** A right on a version of a key ("" = the latest) or on a file or directory, when there is one. */
  void key(String volume, String bucket, String key, String versionId, AclRight right) throws OmException {
    if (enabled) {
      Resource on = namespace.keyResource(volume, bucket, key, versionId);
      if (on.key() != null) {
        require(on, right);
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
    if (authorizer.allows(who, on, AclRight.RIGHT_READ)) {
      posix(who, on, PosixPermissions.Access.READ, key);
      return true;
    }
    for (AclRight right : List.of(AclRight.RIGHT_READ_ACL, AclRight.RIGHT_WRITE_ACL, AclRight.RIGHT_WRITE)) {
      if (authorizer.allows(who, on, right)) {
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
      if (on.key() != null && !authorizer.allows(who, on, AclRight.RIGHT_READ)
          && !authorizer.allows(who, on.holder(), AclRight.RIGHT_LIST)) {
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
