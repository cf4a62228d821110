package org.tropos.om.namespace;

import java.util.List;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.om.acl.NativeAcls;
import org.tropos.om.acl.PosixMode;
import org.tropos.om.acl.PosixPermissions;
import org.tropos.om.acl.Resource;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.UsageRow;
import org.tropos.proto.om.db.VolumeRow;

/**
 * What access checks read (a volume, bucket or key with what holds it, as a {@link Resource}) and the native ACLs
 * stored in their rows. A key's bucket is the one holding its data, a link followed; a bucket's is the one named.
 */
final class AclRows {
  /** What a missing key (or a path through a file) answers: the operation itself reports it. */
  private static final Set<OmResult> ABSENT = Set.of(OmResult.KEY_NOT_FOUND, OmResult.VERSION_NOT_FOUND,
      OmResult.NOT_A_DIRECTORY, OmResult.NOT_A_FILE);

  private AclRows() {
  }

  static Resource volume(Txn txn, String volume) throws OmException {
    return Resource.of(Infos.volume(Volumes.require(txn, volume)));
  }

  static Resource bucket(Txn txn, String volume, String bucket) throws OmException {
    BucketRow row = Buckets.requireRow(txn, volume, bucket);
    return Resource.of(Infos.volume(Volumes.require(txn, volume)), Infos.bucket(row, UsageRow.getDefaultInstance()));
  }

  /**
   * The bucket holding the keys of {@code volume/bucket}, and in it the version {@code versionId} ("" = the latest,
   * a delete marker too) of {@code key} when there is one ("" names none), under the ACL of its prefix.
   */
  static Resource key(Txn txn, String volume, String bucket, String key, String versionId) throws OmException {
    BucketRow row = Buckets.require(txn, volume, bucket);
    Resource holder = holder(txn, row, key);
    if (key.isEmpty()) {
      return holder;
    }
    try {
      return row.getLayout() == BucketLayout.OBJECT_STORE ? new Resource(holder.volume(), holder.bucket(),
          version(txn, row, key, versionId), PosixPermissions.Path.NONE, holder.prefixAcls())
          : path(txn, row, key, holder);
    } catch (OmException e) {
      if (!ABSENT.contains(e.result())) {
        throw e;
      }
      return holder;
    }
  }

  /** The bucket holding the keys of {@code volume/bucket}, under the ACL of the prefix holding {@code path}. */
  static Resource holder(Txn txn, String volume, String bucket, String path) throws OmException {
    return holder(txn, Buckets.require(txn, volume, bucket), path);
  }

  private static Resource holder(Txn txn, BucketRow row, String path) throws OmException {
    return new Resource(Infos.volume(Volumes.require(txn, row.getVolume())), Infos.bucket(row,
        UsageRow.getDefaultInstance()), null).underPrefix(PrefixAcls.holding(txn, row, path));
  }

  /** A path of an FSO bucket: its file or directory if there is one, and the modes of its directories. */
  private static Resource path(Txn txn, BucketRow bucket, String path, Resource holder) throws OmException {
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, Names.split(path));
    List<PosixMode> ancestors = r.ancestors().stream().map(d -> new PosixMode(d.getOwner(), d.getGroup(),
        d.getPermission())).toList();
    KeyInfo found = r.parts().isEmpty() ? null : r.dir().map(d -> Infos.directory(bucket, r.path(), d))
        .orElseGet(() -> r.file().map(f -> Infos.file(bucket, r.path(), f)).orElse(null));
    PosixMode target = found == null ? null : new PosixMode(found.getOwner(), found.getGroup(),
        found.getPermission());
    // A directory is its S3 folder "path/": a prefix ACL on exactly that holds it.
    List<NativeAcl> prefix = r.dir().isPresent() ? PrefixAcls.holding(txn, bucket, r.path() + "/")
        : holder.prefixAcls();
    return new Resource(holder.volume(), holder.bucket(), found, new PosixPermissions.Path(ancestors, target),
        prefix);
  }

  private static KeyInfo version(Txn txn, BucketRow bucket, String key, String versionId) throws OmException {
    KeyVersions.Located found = FlatKeys.find(txn, bucket, key, versionId, true);
    return Infos.version(bucket, key, found.row(), found.table() != OmTable.KEY_VERSIONS);
  }

  /**
   * The volume, bucket or existing key an ACL call names; for a prefix, the bucket holding the keys under the ACL of
   * exactly that prefix.
   */
  static Resource target(Txn txn, AclObject object) throws OmException {
    return switch (object.getType()) {
      case OBJECT_VOLUME -> volume(txn, object.getVolume());
      case OBJECT_BUCKET -> bucket(txn, object.getVolume(), object.getBucket());
      case OBJECT_PREFIX -> {
        BucketRow row = Buckets.require(txn, object.getVolume(), object.getBucket());
        yield holder(txn, row, "").underPrefix(PrefixAcls.of(txn, row, object.getKey()));
      }
      case OBJECT_KEY -> {
        Resource resource = key(txn, object.getVolume(), object.getBucket(), object.getKey(), "");
        if (resource.key() == null) {
          throw new OmException(OmResult.KEY_NOT_FOUND, "key " + object.getKey() + " not found in "
              + object.getVolume() + "/" + object.getBucket());
        }
        yield resource;
      }
      default -> throw new OmException(OmResult.INVALID_REQUEST, "an ACL call names a volume, bucket or key");
    };
  }

  /** Changes the native ACL of what {@code object} names; returns the ACL it then has. */
  static List<NativeAcl> change(Txn txn, AclObject object, AclChange change, List<NativeAcl> given)
      throws OmException {
    if (object.getType() == AclObjectType.OBJECT_PREFIX) {
      BucketRow row = Buckets.require(txn, object.getVolume(), object.getBucket());
      return PrefixAcls.change(txn, row, object.getKey(), change, given);
    }
    List<NativeAcl> acls = NativeAcls.changed(target(txn, object).acls(), change, given);
    switch (object.getType()) {
      case OBJECT_VOLUME -> {
        VolumeRow row = Volumes.require(txn, object.getVolume());
        txn.put(OmTable.VOLUMES, OmDbKeys.volume(object.getVolume()), row.toBuilder().clearAcls().addAllAcls(acls)
            .build());
      }
      case OBJECT_BUCKET -> {
        BucketRow row = Buckets.requireRow(txn, object.getVolume(), object.getBucket());
        txn.put(OmTable.BUCKETS, OmDbKeys.bucket(object.getVolume(), object.getBucket()), row.toBuilder()
            .clearAcls().addAllAcls(acls).build());
      }
      default -> changeKey(txn, Buckets.require(txn, object.getVolume(), object.getBucket()), object.getKey(), acls);
    }
    return acls;
  }

  private static void changeKey(Txn txn, BucketRow bucket, String key, List<NativeAcl> acls) throws OmException {
    if (bucket.getLayout() == BucketLayout.OBJECT_STORE) {
      KeyVersions.Located found = Keys.find(txn, bucket, key, "", false);
      txn.put(found.table(), found.rowKey(), found.row().toBuilder().clearAcls().addAllAcls(acls).build());
      return;
    }
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, Names.split(key));
    if (r.parts().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a bucket's root has the bucket's own ACL");
    }
    byte[] rowKey = OmDbKeys.child(bucket.getObjectId(), r.parentId(), r.parts().get(r.parts().size() - 1));
    if (r.dir().isPresent()) {
      DirectoryRow dir = r.dir().get();
      txn.put(OmTable.DIRECTORIES, rowKey, dir.toBuilder().clearAcls().addAllAcls(acls).build());
    } else {
      FileRow file = r.file().orElseThrow(() -> FsoTree.notFound(bucket, r.path()));
      txn.put(OmTable.FILES, rowKey, file.toBuilder().clearAcls().addAllAcls(acls).build());
    }
  }
}
