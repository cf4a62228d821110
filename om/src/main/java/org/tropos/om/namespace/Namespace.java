package org.tropos.om.namespace;

import com.google.protobuf.ByteString;
import java.util.List;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.acl.Resource;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.om.occ.Txn;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListBucketsResponse;
import org.tropos.proto.om.ListKeyVersionsRequest;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.ListPartsResponse;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.ListVolumesResponse;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * The OM's namespace operations, each one optimistic transaction run by the {@link OccRunner}: volumes,
 * buckets, and keys, dispatched on the bucket's layout (FSO tree or flat OBJECT_STORE keys). Nothing here talks
 * to SCM: an operation may run several times, so block allocation happens outside, in the RPC layer.
 *
 * <p>Thread-safe: every call is independent; concurrency is the runner's business.
 */
public final class Namespace {
  private final OccRunner runner;
  private final BucketDefaults defaults;
  private final S3SecretStore s3Secrets;
  private final DataKeys dataKeys;
  private final S3IdentityStore identities;

  /** S3 secrets kept in plaintext, and no encryption at rest (a cluster without security). */
  public Namespace(OccRunner runner, BucketLayout defaultLayout, ReplicationFactor defaultFactor) {
    this(runner, new BucketDefaults(defaultLayout, defaultFactor), S3SecretSealing.plaintext(), DataKeys.none());
  }

  /**
   * @param defaults what buckets created without a layout or replication get
   * @param sealing how S3 secrets are kept in the database
   * @param dataKeys how the data keys of keys encrypted at rest are kept
   */
  public Namespace(OccRunner runner, BucketDefaults defaults, S3SecretSealing sealing, DataKeys dataKeys) {
    this.runner = runner;
    this.defaults = defaults;
    this.s3Secrets = new S3SecretStore(runner, sealing);
    this.dataKeys = dataKeys;
    this.identities = new S3IdentityStore(runner);
  }

  /** The data keys of encrypted keys. */
  public DataKeys dataKeys() {
    return dataKeys;
  }

  /** S3 identity policies, users and groups. */
  public S3IdentityStore identities() {
    return identities;
  }

  /** The S3 secrets of access ids. */
  public S3SecretStore s3Secrets() {
    return s3Secrets;
  }

  public VolumeInfo createVolume(VolumeInfo volume) throws OmException {
    return runner.run("create volume " + volume.getName(), txn -> Volumes.create(txn, volume));
  }

  public VolumeInfo getVolume(String name) throws OmException {
    return runner.run("get volume " + name, txn -> Volumes.get(txn, name));
  }

  public ListVolumesResponse listVolumes(String prefix, String startAfter, int max) throws OmException {
    return runner.run("list volumes", txn -> Volumes.list(txn, prefix, startAfter, max));
  }

  public void deleteVolume(String name) throws OmException {
    runner.run("delete volume " + name, txn -> {
      Volumes.delete(txn, name);
      return null;
    });
  }

  public BucketInfo createBucket(BucketInfo bucket) throws OmException {
    if (bucket.getEncryption().getKind() == EncryptionKind.SSE_S3) {
      dataKeys.requireMasterKey();
    }
    return runner.run("create bucket " + bucket.getVolume() + "/" + bucket.getName(),
        txn -> Buckets.create(txn, bucket, defaults));
  }

  public BucketInfo getBucket(String volume, String name) throws OmException {
    return runner.run("get bucket " + volume + "/" + name, txn -> Buckets.get(txn, volume, name));
  }

  public ListBucketsResponse listBuckets(String volume, String prefix, String startAfter, int max)
      throws OmException {
    return listBuckets(volume, prefix, startAfter, max, null);
  }

  /** The buckets of {@code volume}; only those {@code owner} owns unless it is null. */
  public ListBucketsResponse listBuckets(String volume, String prefix, String startAfter, int max, String owner)
      throws OmException {
    return runner.run("list buckets of " + volume, txn -> Buckets.list(txn, volume, prefix, startAfter, max,
        row -> owner == null || row.getOwner().equals(owner)));
  }

  /** A volume as access checks see it. */
  public Resource volumeResource(String volume) throws OmException {
    return runner.run("read volume " + volume, txn -> AclRows.volume(txn, volume));
  }

  /** A bucket (a link itself) as access checks see it. */
  public Resource bucketResource(String volume, String bucket) throws OmException {
    return runner.run("read bucket " + volume + "/" + bucket, txn -> AclRows.bucket(txn, volume, bucket));
  }

  /**
   * The bucket holding the keys of {@code volume/bucket} (a link followed) and {@code key} in it, a file or
   * directory, as access checks see them; the key is null when there is none ("" never names one).
   */
  public Resource keyResource(String volume, String bucket, String key) throws OmException {
    return keyResource(volume, bucket, key, "");
  }

  /**
   * The bucket holding the keys of {@code volume/bucket} (a link followed), under the ACL of the prefix holding
   * {@code path} (a key's name, or a prefix listed), as access checks see it; no key is read.
   */
  public Resource keysResource(String volume, String bucket, String path) throws OmException {
    return runner.run("read bucket " + volume + "/" + bucket, txn -> AclRows.holder(txn, volume, bucket, path));
  }

  /** As {@link #keyResource(String, String, String)}, for a version of the key ("" = the latest). */
  public Resource keyResource(String volume, String bucket, String key, String versionId) throws OmException {
    return runner.run("read key " + key, txn -> AclRows.key(txn, volume, bucket, key, versionId));
  }

  /** What an ACL call names, with its owner and native ACL. */
  public Resource aclTarget(AclObject object) throws OmException {
    return runner.run("read the ACL of " + object.getType(), txn -> AclRows.target(txn, object));
  }

  /** Changes the native ACL of a volume, bucket or key; returns the ACL it then has. */
  public List<NativeAcl> changeAcl(AclObject object, AclChange change, List<NativeAcl> acls) throws OmException {
    return runner.run("change the ACL of " + object.getType(), txn -> AclRows.change(txn, object, change, acls));
  }

  public void deleteBucket(String volume, String name) throws OmException {
    runner.run("delete bucket " + volume + "/" + name, txn -> {
      Buckets.delete(txn, volume, name);
      return null;
    });
  }

  /**
   * Opens a key for writing (a read-only check: nothing is stored); returns the open key the writer carries. With
   * an expected bucket, first checks the caller's view of the bucket still holds.
   */
  public OpenKeyRow openKey(OpenKeyRequest request) throws OmException {
    dataKeys.prepare();
    return runner.run("open key " + request.getKey(), txn -> OpenKeys.open(txn, openTarget(txn, request), request,
        dataKeys, false));
  }

  /** The bucket a key is opened in, as the caller expects it if it says how. */
  private static BucketRow openTarget(Txn txn, OpenKeyRequest request) throws OmException {
    return request.hasExpectedBucket()
        ? Buckets.requireAsExpected(txn, request.getVolume(), request.getBucket(), request.getExpectedBucket())
        : Buckets.require(txn, request.getVolume(), request.getBucket());
  }

  /** A key opened with its commit is new to this writer, in the bucket the commit names. */
  private static void checkOpenedWithCommit(CommitKeyRequest request) throws OmException {
    OpenKeyRequest open = request.getOpen();
    if (!open.getVolume().equals(request.getVolume()) || !open.getBucket().equals(request.getBucket())) {
      throw new OmException(OmResult.INVALID_REQUEST, "a key opened with its commit must be opened in the bucket"
          + " it is committed to");
    }
    if (request.getRecommit() || !request.getOpenKey().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a key opened with its commit has no earlier commit or open"
          + " key");
    }
  }

  /** The open key a block is allocated for, checked to belong to the bucket. */
  public OpenKeyRow openKeyOf(String volume, String bucket, ByteString openKey) throws OmException {
    return runner.run("check an open key", txn -> OpenKeys.carried(Buckets.require(txn, volume, bucket), openKey));
  }

  /**
   * Commits a key opened before (the open key it carries), or opened now with its commit when the request names
   * how to open it ({@code open}), as OpenKey would: then the bucket's expected state is checked here.
   */
  public KeyInfo commitKey(CommitKeyRequest request) throws OmException {
    if (request.hasOpen()) {
      checkOpenedWithCommit(request);
    }
    String what = request.hasOpen() ? "create key " + request.getOpen().getKey() : "commit key " + request.getOpenId();
    dataKeys.prepare();
    return runner.run(what, txn -> {
      BucketRow bucket;
      OpenKeyRow open;
      if (request.hasOpen()) {
        bucket = openTarget(txn, request.getOpen());
        open = OpenKeys.open(txn, bucket, request.getOpen(), dataKeys, true);
      } else {
        bucket = Buckets.require(txn, request.getVolume(), request.getBucket());
        open = OpenKeys.carried(bucket, request.getOpenKey());
      }
      if (!open.getUploadId().isEmpty()) {
        return Multipart.commitPart(txn, bucket, open, request);
      }
      return Buckets.flat(bucket) ? FlatKeys.commit(txn, bucket, open, request)
          : FsoChanges.commit(txn, bucket, open, request);
    });
  }

  public KeyInfo lookupKey(String volume, String bucket, String key) throws OmException {
    return runner.run("look up " + key, txn -> {
      BucketRow b = Buckets.require(txn, volume, bucket);
      return Buckets.flat(b) ? FlatKeys.lookup(txn, b, key) : FsoTree.lookup(txn, b, key);
    });
  }

  /** A version of a key ("" = the latest), a delete marker too if {@code markers}, with its parts if asked. */
  public KeyInfo lookupKey(LookupKeyRequest r) throws OmException {
    return runner.run("look up " + r.getKey(), txn -> lookup(txn, r));
  }

  private static KeyInfo lookup(Txn txn, LookupKeyRequest r) throws OmException {
    return Keys.lookup(txn, Buckets.require(txn, r.getVolume(), r.getBucket()), r.getKey(), r.getVersionId(),
        r.getAllowDeleteMarker(), r.getWithParts());
  }

  /** A key's version as {@link #lookupKey(LookupKeyRequest)} finds it, and its bucket as {@link #getBucket}. */
  public record KeyInBucket(KeyInfo key, BucketInfo bucket) {
  }

  /** {@link #lookupKey(LookupKeyRequest)} and {@link #getBucket} in one transaction. */
  public KeyInBucket lookupKeyInBucket(LookupKeyRequest r) throws OmException {
    return runner.run("look up " + r.getKey(), txn -> new KeyInBucket(lookup(txn, r),
        Buckets.get(txn, r.getVolume(), r.getBucket())));
  }

  /** Every version of the keys under a prefix, by key then newest first. */
  public ListKeyVersionsResponse listKeyVersions(ListKeyVersionsRequest r) throws OmException {
    return runner.run("list versions of " + r.getVolume() + "/" + r.getBucket(), txn -> VersionListing.list(txn,
        Buckets.require(txn, r.getVolume(), r.getBucket()), r.getPrefix(), r.getKeyMarker(), r.getVersionIdMarker(),
        r.getMaxResults()));
  }

  public ListKeysResponse listKeys(String volume, String bucket, String prefix, String startAfter, int max)
      throws OmException {
    return runner.run("list keys of " + volume + "/" + bucket, txn -> {
      BucketRow b = Buckets.require(txn, volume, bucket);
      return Buckets.flat(b) ? FlatKeys.list(txn, b, prefix, startAfter, max)
          : FsoKeyListing.list(txn, b, prefix, startAfter, max);
    });
  }

  /** Deletes a key; in an FSO bucket also a directory (recursively only if asked). */
  public void deleteKey(String volume, String bucket, String key, boolean recursive) throws OmException {
    deleteKey(DeleteKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key).setRecursive(recursive)
        .build());
  }

  /**
   * Deletes a key; in a versioned bucket adds a delete marker, or with a version id deletes that version; in an
   * FSO bucket also a directory (recursively only if asked).
   */
  public DeleteKeyResponse deleteKey(DeleteKeyRequest r) throws OmException {
    return runner.run("delete " + r.getKey(), txn -> {
      BucketRow b = Buckets.require(txn, r.getVolume(), r.getBucket());
      if (Conditions.onDelete(r)) {
        Optional<KeyVersions.Located> target = Keys.findIfPresent(txn, b, r.getKey(), r.getVersionId());
        if (target.isEmpty()) {
          return DeleteKeyResponse.newBuilder().setVersionId(r.getVersionId()).build();
        }
        Conditions.checkDelete(r, FsoTree.name(b) + "/" + r.getKey(), target.get().row());
      }
      if (Buckets.flat(b)) {
        return FlatKeys.delete(txn, b, r.getKey(), r.getVersionId(), r.getOwner());
      }
      if (!r.getVersionId().isEmpty() && !r.getVersionId().equals(KeyVersions.NULL_ID)) {
        Keys.find(txn, b, r.getKey(), r.getVersionId(), false);
      }
      FsoChanges.delete(txn, b, r.getKey(), r.getRecursive(), r.getFileOnly());
      return DeleteKeyResponse.getDefaultInstance();
    });
  }

  public void renameKey(String volume, String bucket, String from, String to) throws OmException {
    runner.run("rename " + from + " to " + to, txn -> {
      BucketRow b = Buckets.require(txn, volume, bucket);
      if (Buckets.flat(b)) {
        FlatKeys.rename(txn, b, from, to);
      } else {
        FsoChanges.rename(txn, b, from, to);
      }
      return null;
    });
  }

  public KeyInfo createDirectory(String volume, String bucket, String path, String owner) throws OmException {
    return runner.run("create directory " + path, txn -> FsoTree.mkdirs(txn, Buckets.requireFso(txn, volume,
        bucket), path, owner));
  }

  public KeyInfo getFileStatus(String volume, String bucket, String path) throws OmException {
    return runner.run("status of " + path, txn -> {
      BucketRow b = Buckets.require(txn, volume, bucket);
      return Buckets.flat(b) ? FlatKeys.lookup(txn, b, path) : FsoTree.status(txn, b, path);
    });
  }

  /** Times, owner, group and permission of a file or directory (FSO buckets). */
  public KeyInfo setFileAttributes(SetFileAttributesRequest request) throws OmException {
    return runner.run("set attributes of " + request.getPath(), txn -> FileAttributes.set(txn,
        Buckets.requireFso(txn, request.getVolume(), request.getBucket()), request));
  }

  public ListStatusResponse listStatus(String volume, String bucket, String path, String startAfter, int max)
      throws OmException {
    return runner.run("list " + path, txn -> FsoTree.list(txn, Buckets.requireFso(txn, volume, bucket), path,
        startAfter, max));
  }

  /** Copies a key by reference to its blocks: no data moves, whatever the size. */
  public KeyInfo copyKey(CopyKeyRequest request) throws OmException {
    return runner.run("copy " + request.getKey() + " to " + request.getToKey(), txn -> {
      BucketRow from = Buckets.require(txn, request.getVolume(), request.getBucket());
      BucketRow to = request.getToVolume().equals(request.getVolume()) && request.getToBucket()
          .equals(request.getBucket()) ? from : Buckets.require(txn, request.getToVolume(), request.getToBucket());
      return KeyCopies.copy(txn, from, to, request);
    });
  }

  /** Starts a multipart upload; returns its id. */
  public String initiateMultipartUpload(InitiateMultipartUploadRequest request) throws OmException {
    dataKeys.prepare();
    return runner.run("start a multipart upload of " + request.getKey(), txn -> Multipart.initiate(txn,
        Buckets.require(txn, request.getVolume(), request.getBucket()), request, dataKeys));
  }

  /** Joins the listed parts into the key, atomically; parts not listed are deleted. */
  public KeyInfo completeMultipartUpload(CompleteMultipartUploadRequest request) throws OmException {
    return runner.run("complete the multipart upload of " + request.getKey(), txn -> Multipart.complete(txn,
        Buckets.require(txn, request.getVolume(), request.getBucket()), request));
  }

  public void abortMultipartUpload(String volume, String bucket, String key, String uploadId) throws OmException {
    runner.run("abort the multipart upload of " + key, txn -> {
      Multipart.abort(txn, Buckets.require(txn, volume, bucket), key, uploadId);
      return null;
    });
  }

  /** Replaces the tags of a version of a key. */
  public KeyInfo setKeyTags(SetKeyTagsRequest r) throws OmException {
    return runner.run("tag " + r.getKey(), txn -> KeyAttributes.setTags(txn, Buckets.require(txn, r.getVolume(),
        r.getBucket()), r));
  }

  /** Sets the canned ACL of a version of a key. */
  public KeyInfo setKeyAcl(SetKeyAclRequest r) throws OmException {
    return runner.run("set the ACL of " + r.getKey(), txn -> KeyAttributes.setAcl(txn, Buckets.require(txn,
        r.getVolume(), r.getBucket()), r));
  }

  /** Sets a bucket's versioning or canned ACL. */
  public BucketInfo setBucketProperties(SetBucketPropertiesRequest r) throws OmException {
    if (r.hasEncryption()) {
      dataKeys.requireMasterKey(); // a default no write could follow is refused now, not at every write
    }
    return runner.run("set properties of " + r.getVolume() + "/" + r.getName(), txn -> Buckets.setProperties(txn,
        r));
  }

  /** A part that references a byte range of another key's blocks (no data moves). */
  public PartInfo copyPart(CopyPartRequest r) throws OmException {
    return runner.run("copy a part of " + r.getSourceKey(), txn -> {
      BucketRow bucket = Buckets.require(txn, r.getVolume(), r.getBucket());
      BucketRow source = r.getSourceVolume().equals(r.getVolume()) && r.getSourceBucket().equals(r.getBucket())
          ? bucket : Buckets.require(txn, r.getSourceVolume(), r.getSourceBucket());
      return Multipart.copyPart(txn, source, bucket, r);
    });
  }

  public ListPartsResponse listParts(ListPartsRequest r) throws OmException {
    return runner.run("list parts of " + r.getKey(), txn -> MultipartListings.listParts(txn, Buckets.require(txn,
        r.getVolume(), r.getBucket()), r.getKey(), r.getUploadId(), r.getPartNumberMarker(), r.getMaxParts()));
  }

  public ListMultipartUploadsResponse listMultipartUploads(ListMultipartUploadsRequest r) throws OmException {
    return runner.run("list multipart uploads of " + r.getBucket(), txn -> MultipartListings.listUploads(txn,
        Buckets.require(txn, r.getVolume(), r.getBucket()), r.getPrefix(), r.getKeyMarker(), r.getUploadIdMarker(),
        r.getMaxUploads()));
  }

  /**
   * Up to {@code max} deleted keys whose blocks may now go to SCM: each key's reference to a shared block is
   * dropped in the same transaction (such a block stays, its row of deleted blocks no longer lists it).
   */
  public List<DeletedKeyBlocks> releaseDeletedKeys(int max) throws OmException {
    return runner.run("release deleted keys", txn -> DeletedKeys.release(txn, max));
  }

  /** Forgets deleted keys whose blocks SCM took. */
  public void forgetDeletedKeys(List<byte[]> rows) throws OmException {
    runner.run("forget handed-over keys", txn -> {
      rows.forEach(key -> txn.delete(OmTable.DELETED_KEYS, key));
      return null;
    });
  }
}
