package org.tropos.om.acl;

import java.util.List;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.VolumeInfo;

/**
 * What a right is asked on, with what holds it: a volume; a bucket and its volume; or a key (a file or directory)
 * with its bucket and volume. The deepest one given is the target. A key's bucket is where its data is: a link's
 * source, never the link, so a link grants nothing on the keys it shows. In an FSO bucket {@code posix} holds the
 * owners and bits of the key's path ({@link PosixPermissions}). {@code prefixAcls} is the ACL of the longest prefix
 * with one that holds the key's path (or the path a request names in the bucket; empty when none): its ACCESS
 * entries grant on the key as the key's own do.
 */
public record Resource(VolumeInfo volume, BucketInfo bucket, KeyInfo key, PosixPermissions.Path posix,
    List<NativeAcl> prefixAcls) {
  public Resource(VolumeInfo volume, BucketInfo bucket, KeyInfo key) {
    this(volume, bucket, key, PosixPermissions.Path.NONE, List.of());
  }

  public static Resource of(VolumeInfo volume) {
    return new Resource(volume, null, null);
  }

  public static Resource of(VolumeInfo volume, BucketInfo bucket) {
    return new Resource(volume, bucket, null);
  }

  public AclObjectType type() {
    return key != null ? AclObjectType.OBJECT_KEY : bucket != null ? AclObjectType.OBJECT_BUCKET
        : AclObjectType.OBJECT_VOLUME;
  }

  /** The bucket that holds the target key, as the target (what creating a key there is checked on). */
  public Resource holder() {
    return new Resource(volume, bucket, null, posix, prefixAcls);
  }

  /** The same, under a prefix with {@code acls}. */
  public Resource underPrefix(List<NativeAcl> acls) {
    return new Resource(volume, bucket, key, posix, acls);
  }

  /** The target's owner. */
  public String owner() {
    return key != null ? key.getOwner() : bucket != null ? bucket.getOwner() : volume.getOwner();
  }

  /** The target's native ACL. */
  public List<NativeAcl> acls() {
    return key != null ? key.getAclsList() : bucket != null ? bucket.getAclsList() : volume.getAclsList();
  }

  /** Whether {@code user} owns the target or what holds it. */
  boolean ownedBy(String user) {
    return volume.getOwner().equals(user) || bucket != null && bucket.getOwner().equals(user)
        || key != null && key.getOwner().equals(user);
  }
}
