package org.tropos.om.namespace;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.MultipartUploadRow;
import org.tropos.proto.om.db.OpenKeyRow;

/** Keys being written: recorded when opened, invisible until committed. */
final class OpenKeys {
  /** The metadata entry holding a key's S3 ETag. */
  static final String ETAG = "ETag";
  /** The commit metadata entry holding a multipart part's checksum, as its writer encodes it. */
  static final String PART_CHECKSUM = "PartChecksum";

  private OpenKeys() {
  }

  /**
   * An open key, after checking what can be checked now (commit checks again). Nothing is stored: the writer
   * carries the open key to its commit, so opening costs no disk write and an abandoned write leaves nothing behind
   * in the OM.
   */
  static OpenKeyRow open(Txn txn, BucketRow bucket, OpenKeyRequest request, DataKeys keys, boolean withCommit)
      throws OmException {
    AclGrantChecks.check(request.getGrants());
    if (request.getPermission() < 0 || request.getPermission() > FileAttributes.MAX_PERMISSION) {
      throw new OmException(OmResult.INVALID_REQUEST, "permission " + Integer.toOctalString(request.getPermission())
          + " is not 0 to 7777 (octal)");
    }
    if (bucket.getLayout() == BucketLayout.OBJECT_STORE) {
      Names.checkKey(request.getKey());
    } else {
      txn.unrecorded(t -> {
        checkFsoTarget(t, bucket, request);
        return null;
      });
    }
    String path = bucket.getLayout() == BucketLayout.OBJECT_STORE ? request.getKey()
        : Names.join(Names.split(request.getKey()));
    OpenKeyRow.Builder open = OpenKeyRow.newBuilder();
    if (request.getUploadId().isEmpty()) {
      KeyReplication.ofKey(open, request, bucket);
      KeyEncryptions.opened(keys, bucket, request.getEncryption(), withCommit).ifPresent(open::setEncryption);
    } else {
      MultipartUploadRow upload = Multipart.upload(txn, bucket, path, request.getUploadId());
      KeyReplication.ofPart(open, request, upload);
      Multipart.partEncryption(upload, request, withCommit).ifPresent(open::setEncryption);
    }
    return open.setOpenId(txn.newObjectId()).setBucketId(bucket.getObjectId())
        .setPath(path)
        .setOwner(request.getOwner().isEmpty() ? bucket.getOwner() : request.getOwner())
        .setCreationTimeMs(txn.nowMillis()).putAllMetadata(request.getMetadataMap())
        .setNoOverwrite(request.getNoOverwrite()).setCreateParents(request.getCreateParents())
        .setUploadId(request.getUploadId()).setPartNumber(request.getPartNumber())
        .setPermission(request.getPermission()).setAcl(request.getAcl()).setGrants(request.getGrants())
        .setIfMatch(request.getIfMatch())
        .setIfNoneMatch(request.getIfNoneMatch()).build();
  }

  private static void checkFsoTarget(Txn txn, BucketRow bucket, OpenKeyRequest request) throws OmException {
    List<String> parts = Names.split(request.getKey());
    if (parts.isEmpty()) {
      throw new OmException(OmResult.INVALID_PATH, "a key needs a name");
    }
    Names.checkFileName(request.getKey());
    FsoTree.Resolved r = FsoTree.resolve(txn, bucket, parts);
    if (r.dir().isPresent()) {
      throw new OmException(OmResult.NOT_A_FILE, r.path() + " in " + FsoTree.name(bucket) + " is a directory");
    }
    if (r.file().isPresent() && request.getNoOverwrite()) {
      throw new OmException(OmResult.FILE_ALREADY_EXISTS, r.path() + " already exists in " + FsoTree.name(bucket));
    }
    if (!r.parentsExist() && !request.getCreateParents()) {
      throw new OmException(OmResult.DIRECTORY_NOT_FOUND, "the parent of " + r.path() + " in "
          + FsoTree.name(bucket) + " does not exist");
    }
  }

  /**
   * Stores a committed key. Without overwrite the caller has checked the name is free (a recorded read, so a
   * concurrent create conflicts), or holds this writer's own earlier commit (an hsync, or a retried commit),
   * which is then replaced as an overwrite replaces whatever is at the name at commit; the replaced version's
   * blocks stay when it is the same key (same object id), since the new version still lists them.
   */
  static void commit(Txn txn, BucketRow bucket, OpenKeyRow open, OmTable table, byte[] key, String path,
      FileRow file, boolean committedBefore) {
    if (open.getNoOverwrite() && !committedBefore) {
      txn.put(table, key, file);
    } else {
      txn.replace(table, key, new FileReplacement(file, Usage.key(bucket), FsoTree.name(bucket) + "/" + path,
          txn.nowMillis()));
    }
    Usage.add(txn, bucket, file.getSize(), 1);
  }

  /** The open key a writer carried back, checked to belong to this bucket. */
  static OpenKeyRow carried(BucketRow bucket, ByteString openKey) throws OmException {
    OpenKeyRow row;
    try {
      row = OpenKeyRow.parseFrom(openKey);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INVALID_REQUEST, "unreadable open key: " + e.getMessage());
    }
    if (openKey.isEmpty() || row.getBucketId() != bucket.getObjectId()) {
      throw new OmException(OmResult.OPEN_KEY_NOT_FOUND, "no key of " + FsoTree.name(bucket) + " was opened"
          + " with this open key");
    }
    return row;
  }

  /** The committed row of an open key: the writer's block list, which must add up to the size. */
  static FileRow toFile(Txn txn, BucketRow bucket, OpenKeyRow open, long parentId, String name,
      CommitKeyRequest request) throws OmException {
    BucketAccessSettings.checkObjectAcl(bucket, open.getAcl(), open.getGrants());
    long sum = 0;
    for (KeyBlock b : request.getBlocksList()) {
      if (b.getLength() <= 0) {
        throw new OmException(OmResult.INVALID_REQUEST, "block " + b.getBlockId() + " has length " + b.getLength());
      }
      sum += b.getLength();
    }
    if (sum != request.getSize()) {
      throw new OmException(OmResult.INVALID_REQUEST, "the blocks hold " + sum + " bytes but the key's size is "
          + request.getSize());
    }
    FileRow.Builder file = FileRow.newBuilder();
    if (open.hasEncryption()) {
      file.setEncryption(KeyEncryptions.committed(open, request.getSize()));
    }
    if (open.hasEc()) {
      file.setEc(open.getEc());
    }
    return file.setObjectId(open.getOpenId()).setParentId(parentId).setName(name)
        .setSize(request.getSize()).addAllBlocks(request.getBlocksList()).setFactor(open.getFactor())
        .setOwner(ObjectOwners.of(bucket, open.getOwner(), open.getAcl())).setCreationTimeMs(open.getCreationTimeMs())
        .setModificationTimeMs(txn.nowMillis())
        .putAllMetadata(open.getMetadataMap()).putAllMetadata(request.getMetadataMap())
        .setPermission(open.getPermission()).setAcl(open.getAcl()).setGrants(open.getGrants())
        .setUploadId(open.getJoinedUploadId())
        .addAllParts(open.getJoinedPartsList()).addAllAcls(PrefixAcls.inheritedBy(txn, bucket, open.getPath())).build();
  }
}
