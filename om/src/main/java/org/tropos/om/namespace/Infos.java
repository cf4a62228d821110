package org.tropos.om.namespace;

import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.DirectoryRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.UsageRow;
import org.tropos.proto.om.db.VolumeRow;

/** Stored rows as clients see them. */
final class Infos {
  private Infos() {
  }

  static VolumeInfo volume(VolumeRow row) {
    return VolumeInfo.newBuilder().setName(row.getName()).setOwner(row.getOwner()).setQuotaBytes(row.getQuotaBytes())
        .setQuotaNamespace(row.getQuotaNamespace()).setCreationTimeMs(row.getCreationTimeMs())
        .setModificationTimeMs(row.getModificationTimeMs()).setObjectId(row.getObjectId()).addAllAcls(row.getAclsList())
        .build();
  }

  static BucketInfo bucket(BucketRow row, UsageRow usage) {
    BucketInfo.Builder info = BucketInfo.newBuilder();
    if (row.hasEc()) {
      info.setEc(row.getEc());
    }
    info.setVolume(row.getVolume()).setName(row.getName())
        .setLayout(row.getLayout())
        .setFactor(row.getFactor()).setOwner(row.getOwner()).setQuotaBytes(row.getQuotaBytes())
        .setQuotaNamespace(row.getQuotaNamespace()).setCreationTimeMs(row.getCreationTimeMs())
        .setModificationTimeMs(row.getModificationTimeMs()).setUsedBytes(usage.getUsedBytes())
        .setUsedNamespace(usage.getUsedNamespace()).setObjectId(row.getObjectId())
        .setSourceVolume(row.getSourceVolume()).setSourceBucket(row.getSourceBucket())
        .setVersioning(row.getVersioning()).setAcl(row.getAcl()).setGrants(row.getGrants()).putAllTags(row.getTagsMap())
        .setLocation(row.getLocation())
        .addAllCorsRules(row.getCorsRulesList()).addAllAcls(row.getAclsList()).setPolicy(row.getPolicy())
        .setObjectOwnership(row.getObjectOwnership());
    if (row.hasPublicAccessBlock()) {
      info.setPublicAccessBlock(row.getPublicAccessBlock());
    }
    if (row.hasEncryption()) {
      info.setEncryption(row.getEncryption());
    }
    return info.build();
  }

  /** A key's latest version (its parts, when joined by a multipart upload, only counted). */
  static KeyInfo file(BucketRow bucket, String path, FileRow row) {
    return version(bucket, path, row, true);
  }

  /** A version of a key, the latest or not. */
  static KeyInfo version(BucketRow bucket, String path, FileRow row, boolean latest) {
    KeyInfo.Builder info = KeyInfo.newBuilder();
    if (row.hasEncryption()) {
      info.setEncryption(row.getEncryption());
    }
    if (row.hasEc()) {
      info.setEc(row.getEc());
    }
    return info.setVolume(bucket.getVolume()).setBucket(bucket.getName()).setName(path)
        .setSize(KeyEncryptions.plaintextSize(row)).addAllBlocks(row.getBlocksList()).setFactor(row.getFactor())
        .setOwner(row.getOwner())
        .setCreationTimeMs(row.getCreationTimeMs()).setModificationTimeMs(row.getModificationTimeMs())
        .putAllMetadata(row.getMetadataMap()).setObjectId(row.getObjectId()).setPermission(row.getPermission())
        .setGroup(row.getGroup()).setAccessTimeMs(row.getAccessTimeMs()).setVersionId(KeyVersions.id(row))
        .setDeleteMarker(row.getDeleteMarker()).setLatest(latest).setAcl(row.getAcl()).setGrants(row.getGrants())
        .setPartCount(row.getPartsCount()).addAllAcls(row.getAclsList()).build();
  }

  static KeyInfo directory(BucketRow bucket, String path, DirectoryRow row) {
    return KeyInfo.newBuilder().setVolume(bucket.getVolume()).setBucket(bucket.getName()).setName(path)
        .setDirectory(true).setOwner(row.getOwner()).setCreationTimeMs(row.getCreationTimeMs())
        .setModificationTimeMs(row.getModificationTimeMs()).setObjectId(row.getObjectId())
        .setPermission(row.getPermission()).setGroup(row.getGroup()).setAccessTimeMs(row.getAccessTimeMs())
        .addAllAcls(row.getAclsList()).build();
  }

  /** The bucket itself as the root directory of its namespace. */
  static KeyInfo root(BucketRow bucket) {
    return KeyInfo.newBuilder().setVolume(bucket.getVolume()).setBucket(bucket.getName()).setName("")
        .setDirectory(true).setOwner(bucket.getOwner()).setCreationTimeMs(bucket.getCreationTimeMs())
        .setModificationTimeMs(bucket.getModificationTimeMs()).setObjectId(bucket.getObjectId())
        .addAllAcls(bucket.getAclsList()).build();
  }
}
