package org.tropos.om.namespace;

import java.util.Optional;
import java.util.function.Predicate;
import org.tropos.common.rpc.OmException;
import org.tropos.om.acl.NativeAcls;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketEncryption;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.BucketVersioning;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.ExpectedBucket;
import org.tropos.proto.om.ListBucketsResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.UsageRow;
import org.tropos.proto.om.db.VolumeRow;

/**
 * Buckets: create (in an existing volume), read with usage, list, delete when empty. A link is a bucket row
 * naming another bucket: key operations follow it ({@link #require}), bucket operations act on the link itself.
 */
final class Buckets {
  /**
   * Longest chain of links. A new link must reach a bucket that holds keys, so links cannot form a loop; a
   * chain broken later (its end deleted) fails with BUCKET_NOT_FOUND.
   */
  private static final int MAX_LINK_HOPS = 8;

  private Buckets() {
  }

  /** The bucket holding the keys a request names: a link is followed to its source. */
  static BucketRow require(Txn txn, String volume, String bucket) throws OmException {
    return follow(txn, requireRow(txn, volume, bucket), MAX_LINK_HOPS);
  }

  /**
   * As {@link #require}, once the bucket named (a link itself) is found to have the object id, owner, ACL, policy,
   * Block Public Access and Object Ownership a caller decided its access on, and the default encryption it wrote
   * by; else BUCKET_CHANGED.
   */
  static BucketRow requireAsExpected(Txn txn, String volume, String bucket, ExpectedBucket expected)
      throws OmException {
    BucketRow row = requireRow(txn, volume, bucket);
    if (row.getObjectId() != expected.getObjectId() || !row.getOwner().equals(expected.getOwner())
        || row.getAcl() != expected.getAcl() || !row.getGrants().equals(expected.getGrants())
        || !row.getPolicy().equals(expected.getPolicy()) || row.getObjectOwnership() != expected.getObjectOwnership()
        || !row.getPublicAccessBlock().equals(expected.getPublicAccessBlock())
        || !row.getEncryption().equals(expected.getEncryption())) {
      throw new OmException(OmResult.BUCKET_CHANGED, "bucket " + volume + "/" + bucket + " changed since it was"
          + " read: its owner, ACL, policy, access settings, default encryption or identity differ");
    }
    return follow(txn, row, MAX_LINK_HOPS);
  }

  /** {@code named} itself, or the bucket its chain of links ends at. */
  private static BucketRow follow(Txn txn, BucketRow named, int maxHops) throws OmException {
    BucketRow row = named;
    for (int hops = 0; isLink(row); hops++) {
      if (hops == maxHops) {
        throw new OmException(OmResult.INVALID_REQUEST, "bucket " + named.getVolume() + "/" + named.getName()
            + " starts a chain of links longer than " + MAX_LINK_HOPS);
      }
      BucketRow link = row;
      row = txn.get(OmTable.BUCKETS, OmDbKeys.bucket(link.getSourceVolume(), link.getSourceBucket()),
          BucketRow.parser()).orElseThrow(() -> new OmException(OmResult.BUCKET_NOT_FOUND, "bucket "
              + link.getVolume() + "/" + link.getName() + " links to " + link.getSourceVolume() + "/"
              + link.getSourceBucket() + ", which does not exist"));
    }
    return row;
  }

  private static boolean isLink(BucketRow row) {
    return !row.getSourceBucket().isEmpty();
  }

  /** The bucket row itself, a link not followed. */
  static BucketRow requireRow(Txn txn, String volume, String bucket) throws OmException {
    Optional<BucketRow> row = txn.get(OmTable.BUCKETS, OmDbKeys.bucket(volume, bucket), BucketRow.parser());
    if (row.isPresent()) {
      return row.get();
    }
    Volumes.require(txn, volume);
    throw new OmException(OmResult.BUCKET_NOT_FOUND, "bucket " + volume + "/" + bucket + " not found");
  }

  static BucketInfo create(Txn txn, BucketInfo request, BucketDefaults defaults) throws OmException {
    Names.checkBucket(request.getName());
    AclGrantChecks.check(request.getGrants());
    NativeAcls.checkAll(request.getAclsList());
    if (request.getQuotaBytes() < 0 || request.getQuotaNamespace() < 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "quotas must be >= 0 (0 = none)");
    }
    VolumeRow volume = Volumes.require(txn, request.getVolume());
    byte[] key = OmDbKeys.bucket(request.getVolume(), request.getName());
    if (txn.get(OmTable.BUCKETS, key, BucketRow.parser()).isPresent()) {
      throw new OmException(OmResult.BUCKET_ALREADY_EXISTS, "bucket " + request.getVolume() + "/"
          + request.getName() + " already exists");
    }
    boolean link = !request.getSourceVolume().isEmpty() || !request.getSourceBucket().isEmpty();
    // A link shows its source's layout and replication, which its keys have.
    BucketRow source = link ? linkSource(txn, request) : null;
    BucketLayout layout = link ? source.getLayout() : request.getLayout() == BucketLayout.BUCKET_LAYOUT_UNSPECIFIED
        ? defaults.layout() : request.getLayout();
    if (layout == BucketLayout.UNRECOGNIZED) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown layout");
    }
    BucketRow.Builder created = BucketRow.newBuilder();
    KeyReplication.ofBucket(created, request, source, defaults);
    BucketRow row = created.setObjectId(txn.newObjectId()).setVolume(request.getVolume())
        .setVolumeId(volume.getObjectId()).setName(request.getName()).setLayout(layout)
        .setOwner(request.getOwner().isEmpty() ? volume.getOwner() : request.getOwner())
        .setQuotaBytes(request.getQuotaBytes()).setQuotaNamespace(request.getQuotaNamespace())
        .setCreationTimeMs(txn.nowMillis()).setModificationTimeMs(txn.nowMillis())
        .setSourceVolume(request.getSourceVolume()).setSourceBucket(request.getSourceBucket())
        .setAcl(request.getAcl()).setGrants(request.getGrants()).setLocation(request.getLocation())
        .setObjectOwnership(request.getObjectOwnership()).addAllAcls(request.getAclsList())
        .addAllAcls(NativeAcls.inherited(volume.getAclsList(), true)).build();
    if (request.hasEncryption()) {
      if (link) {
        throw new OmException(OmResult.INVALID_REQUEST, "a bucket link has no encryption of its own: its source's"
            + " keys are what it shows");
      }
      checkEncryption(request.getEncryption());
      row = row.toBuilder().setEncryption(request.getEncryption()).build();
    }
    BucketAccessSettings.checkOwnership(row);
    txn.put(OmTable.BUCKETS, key, row);
    return Infos.bucket(row, UsageRow.getDefaultInstance());
  }

  /** The bucket a new link will show: it must exist (it may itself be a link). */
  private static BucketRow linkSource(Txn txn, BucketInfo request) throws OmException {
    if (request.getSourceVolume().isEmpty() || request.getSourceBucket().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a bucket link needs both a source volume and bucket");
    }
    if (request.getQuotaBytes() > 0 || request.getQuotaNamespace() > 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "a bucket link has no quota of its own: its source's counts");
    }
    return follow(txn, requireRow(txn, request.getSourceVolume(), request.getSourceBucket()), MAX_LINK_HOPS - 1);
  }

  /** A bucket as it is; a link shows its source's versioning, which its keys follow. */
  static BucketInfo get(Txn txn, String volume, String bucket) throws OmException {
    BucketRow row = requireRow(txn, volume, bucket);
    BucketInfo info = Infos.bucket(row, txn.usage(OmDbKeys.bucket(volume, bucket)));
    if (!isLink(row)) {
      return info;
    }
    try {
      return info.toBuilder().setVersioning(require(txn, volume, bucket).getVersioning()).build();
    } catch (OmException e) {
      if (e.result() != OmResult.BUCKET_NOT_FOUND) {
        throw e;
      }
      return info;
    }
  }

  /**
   * Sets versioning (of the bucket holding the keys: a link's source), and the canned ACL and tags (of the bucket
   * named, a link itself). Versioning needs an OBJECT_STORE bucket, and once enabled never returns to never-enabled.
   */
  static BucketInfo setProperties(Txn txn, SetBucketPropertiesRequest request) throws OmException {
    AclGrantChecks.check(request.getGrants());
    if (request.getGrants().getGiven() && !request.hasAcl()) {
      throw new OmException(OmResult.INVALID_REQUEST, "ACL grants are set with the acl they stand instead of");
    }
    String volume = request.getVolume();
    String name = request.getName();
    if (request.hasVersioning()) {
      if (isLink(requireRow(txn, volume, name))) {
        throw new OmException(OmResult.INVALID_REQUEST, "bucket " + volume + "/" + name + " is a link: set"
            + " versioning on its source, whose keys it is");
      }
      BucketRow keys = require(txn, volume, name);
      BucketVersioning wanted = request.getVersioning();
      if (keys.getLayout() != BucketLayout.OBJECT_STORE) {
        throw new OmException(OmResult.NOT_SUPPORTED_FOR_LAYOUT, "bucket " + keys.getVolume() + "/"
            + keys.getName() + " is FILE_SYSTEM_OPTIMIZED: versioning needs an OBJECT_STORE bucket");
      }
      if (wanted == BucketVersioning.UNRECOGNIZED || (wanted == BucketVersioning.VERSIONING_NEVER_ENABLED
          && keys.getVersioning() != BucketVersioning.VERSIONING_NEVER_ENABLED)) {
        throw new OmException(OmResult.INVALID_REQUEST, "versioning of " + keys.getVolume() + "/" + keys.getName()
            + " can be enabled or suspended, not " + wanted);
      }
      if (wanted != keys.getVersioning()) {
        txn.put(OmTable.BUCKETS, OmDbKeys.bucket(keys.getVolume(), keys.getName()), keys.toBuilder()
            .setVersioning(wanted).setModificationTimeMs(txn.nowMillis()).build());
      }
    }
    if (request.getSetEncryption()) {
      setEncryption(txn, volume, name, request);
    }
    if (request.hasAcl() && request.getAcl() == CannedAcl.UNRECOGNIZED) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown ACL");
    }
    if (request.getSetTags() || request.getSetCors() || BucketAccessSettings.changedBy(request)) {
      BucketRow.Builder row = requireRow(txn, volume, name).toBuilder();
      BucketAccessSettings.apply(row, request);
      if (request.getSetTags()) {
        row.clearTags().putAllTags(request.getTagsMap());
      }
      if (request.getSetCors()) {
        row.clearCorsRules().addAllCorsRules(request.getCorsRulesList());
      }
      txn.put(OmTable.BUCKETS, OmDbKeys.bucket(volume, name), row.build());
    }
    return get(txn, volume, name);
  }

  /** Sets or removes the default encryption of the bucket whose keys get it (a link has none of its own). */
  private static void setEncryption(Txn txn, String volume, String name, SetBucketPropertiesRequest request)
      throws OmException {
    if (isLink(requireRow(txn, volume, name))) {
      throw new OmException(OmResult.INVALID_REQUEST, "bucket " + volume + "/" + name + " is a link: set"
          + " encryption on its source, whose keys it is");
    }
    BucketRow.Builder row = requireRow(txn, volume, name).toBuilder().setModificationTimeMs(txn.nowMillis());
    if (request.hasEncryption()) {
      checkEncryption(request.getEncryption());
      row.setEncryption(request.getEncryption());
    } else {
      row.clearEncryption();
    }
    txn.put(OmTable.BUCKETS, OmDbKeys.bucket(volume, name), row.build());
  }

  /**
   * A bucket's default encryption is SSE-S3, or SSE-KMS under a KMS key it names (a customer's key is never kept,
   * so it cannot be a default).
   */
  private static void checkEncryption(BucketEncryption encryption) throws OmException {
    boolean kms = encryption.getKind() == EncryptionKind.SSE_KMS;
    if (encryption.getKind() != EncryptionKind.SSE_S3 && !kms) {
      throw new OmException(OmResult.INVALID_REQUEST, "unknown default encryption " + encryption.getKindValue()
          + ": a bucket's default is SSE_S3 or SSE_KMS");
    }
    if (kms == encryption.getKmsKeyId().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, kms ? "a bucket's default SSE-KMS names its KMS key"
          : "a KMS key is for SSE-KMS");
    }
  }

  /** The buckets of {@code volume} that {@code shown} keeps, a page of them. */
  static ListBucketsResponse list(Txn txn, String volume, String prefix, String startAfter, int max,
      Predicate<BucketRow> shown) throws OmException {
    Volumes.require(txn, volume);
    Listing.Page<BucketInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] p = OmDbKeys.bucket(volume, prefix);
    byte[] from = Listing.from(p, startAfter.isEmpty() ? null : OmDbKeys.bucket(volume, startAfter));
    txn.scan(OmTable.BUCKETS, p, from, BucketRow.parser(), (k, row) -> !shown.test(row) || page.add(
        Infos.bucket(row, txn.usage(OmDbKeys.bucket(volume, row.getName())))));
    return ListBucketsResponse.newBuilder().addAllBuckets(page.items()).setTruncated(page.truncated()).build();
  }

  /** Deletes an empty bucket, or a link (never its source). */
  static void delete(Txn txn, String volume, String bucket) throws OmException {
    BucketRow row = requireRow(txn, volume, bucket);
    // FSO: the root's entries only; those of directories deleted recursively may still await their purge, which
    // carries on without the bucket.
    boolean empty = row.getLayout() == BucketLayout.OBJECT_STORE
        ? txn.isEmpty(OmTable.KEYS, OmDbKeys.bucketPrefix(row.getObjectId()))
        : txn.isEmpty(OmTable.DIRECTORIES, OmDbKeys.childrenOf(row.getObjectId(), row.getObjectId()))
            && txn.isEmpty(OmTable.FILES, OmDbKeys.childrenOf(row.getObjectId(), row.getObjectId()));
    if (!empty) {
      throw new OmException(OmResult.BUCKET_NOT_EMPTY, "bucket " + volume + "/" + bucket + " is not empty");
    }
    txn.delete(OmTable.BUCKETS, OmDbKeys.bucket(volume, bucket));
    txn.delete(OmTable.USAGE, OmDbKeys.bucket(volume, bucket));
    PrefixAcls.deleteAll(txn, row);
  }

  /** The bucket, which must be FILE_SYSTEM_OPTIMIZED (NOT_SUPPORTED_FOR_LAYOUT otherwise). */
  static BucketRow requireFso(Txn txn, String volume, String bucket) throws OmException {
    BucketRow b = require(txn, volume, bucket);
    if (flat(b)) {
      throw new OmException(OmResult.NOT_SUPPORTED_FOR_LAYOUT, "bucket " + volume + "/" + bucket
          + " is OBJECT_STORE: it has no directories");
    }
    return b;
  }

  /** Whether the bucket is OBJECT_STORE: keys are flat names, no directories. */
  static boolean flat(BucketRow bucket) {
    return bucket.getLayout() == BucketLayout.OBJECT_STORE;
  }
}
