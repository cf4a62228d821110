package org.tropos.om.namespace;

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.KeyBlocks;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyEncryption;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.FileRow;
import org.tropos.proto.om.db.MultipartPartRow;
import org.tropos.proto.om.db.MultipartUploadRow;
import org.tropos.proto.om.db.OpenKeyRow;

/**
 * Multipart uploads. Parts are written like keys (opened with the upload id and part number) and committed as
 * part rows; Complete joins the listed parts' block lists into one key (no byte is rewritten) and queues the
 * blocks of parts left out for deletion. A part commit rewrites the upload row at commit time (a
 * {@link org.tropos.om.occ.Replacement}, so parts never conflict with each other) and fails if the upload is
 * gone; Complete and Abort read that row, so a part that lands while they run makes them re-run and see it.
 */
final class Multipart {
  private static final int MAX_PART_NUMBER = 10_000;

  private Multipart() {
  }

  static String initiate(Txn txn, BucketRow bucket, InitiateMultipartUploadRequest request, DataKeys keys)
      throws OmException {
    checkName(bucket, request.getKey());
    AclGrantChecks.check(request.getGrants());
    BucketAccessSettings.checkObjectAcl(bucket, request.getAcl(), request.getGrants());
    if (!request.getEncryption().getDataKey().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "an upload's data key is made by the OM");
    }
    String uploadId = String.format("%016x", txn.newObjectId());
    MultipartUploadRow.Builder upload = MultipartUploadRow.newBuilder();
    KeyEncryptions.opened(keys, bucket, request.getEncryption(), false).ifPresent(upload::setEncryption);
    KeyReplication.ofUpload(upload, request, bucket);
    txn.put(OmTable.MULTIPART_UPLOADS, MultipartKeys.upload(bucket, request.getKey(), uploadId), upload
        .setUploadId(uploadId).setKey(request.getKey()).setOwner(ObjectOwners.of(bucket, request.getOwner(),
            request.getAcl())).setCreationTimeMs(txn.nowMillis()).putAllMetadata(request.getMetadataMap())
        .setAcl(request.getAcl()).setGrants(request.getGrants()).build());
    return uploadId;
  }

  private static void checkName(BucketRow bucket, String key) throws OmException {
    if (bucket.getLayout() == BucketLayout.OBJECT_STORE) {
      Names.checkKey(key);
    } else if (Names.split(key).isEmpty()) {
      throw new OmException(OmResult.INVALID_PATH, "a key needs a name");
    } else {
      Names.checkFileName(key);
    }
  }

  /**
   * Stores a written part (its ETag and checksum come with the commit's metadata); a part number written again
   * replaces.
   */
  static KeyInfo commitPart(Txn txn, BucketRow bucket, OpenKeyRow open, CommitKeyRequest request)
      throws OmException {
    byte[] uploadKey = checkUpload(txn, bucket, open.getPath(), open.getUploadId(), open.getPartNumber());
    FileRow file = OpenKeys.toFile(txn, bucket, open, 0, "", request);
    MultipartPartRow.Builder row = MultipartPartRow.newBuilder();
    if (file.hasEncryption()) {
      row.setPlaintextSize(file.getEncryption().getPlaintextSize());
    }
    MultipartPartRow part = store(txn, bucket, open.getPath(), open.getUploadId(), uploadKey, row
        .setPartNumber(open.getPartNumber()).setEtag(request.getMetadataOrDefault(OpenKeys.ETAG, ""))
        .setChecksum(request.getMetadataOrDefault(OpenKeys.PART_CHECKSUM, "")).setSize(file.getSize())
        .addAllBlocks(request.getBlocksList()).setModificationTimeMs(txn.nowMillis()).setOpenId(open.getOpenId())
        .build());
    KeyInfo.Builder committed = KeyInfo.newBuilder().setName(open.getPath())
        .setSize(KeyEncryptions.plaintextSize(file)).putMetadata(OpenKeys.ETAG, part.getEtag());
    if (file.hasEncryption()) {
      committed.setEncryption(file.getEncryption());
    }
    return committed.build();
  }

  /**
   * How a part of {@code upload} ({@code request} opens it) is encrypted: as the upload is, under its data key (each
   * part a stream of its own). {@code written}: the part's bytes came before it was opened, so without that key.
   */
  static Optional<KeyEncryption> partEncryption(MultipartUploadRow upload, OpenKeyRequest request, boolean written)
      throws OmException {
    String uploadId = request.getUploadId();
    EncryptionRequest asked = request.getEncryption();
    if (upload.getEncryption().getKind() == EncryptionKind.SSE_C) {
      // S3 has every part sent with the upload's key: each is encrypted by its writer under it.
      if (asked.getKind() != EncryptionKind.SSE_C
          || !asked.getCustomerKeyCheck().equals(upload.getEncryption().getCustomerKeyCheck())) {
        throw new OmException(OmResult.INVALID_REQUEST, "upload " + uploadId + " is encrypted with a customer's"
            + " key (SSE-C): each part is written with that key");
      }
      return Optional.of(upload.getEncryption());
    }
    if (asked.getKind() != EncryptionKind.ENCRYPTION_NONE || !asked.getDataKey().isEmpty()
        || !asked.getCustomerKeyCheck().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a part is encrypted as its upload is: it asks for nothing");
    }
    if (!upload.hasEncryption()) {
      return Optional.empty();
    }
    if (written) {
      throw new OmException(OmResult.INVALID_REQUEST, "upload " + uploadId + " is encrypted: its parts are opened"
          + " before they are written, to be written under its data key");
    }
    return Optional.of(upload.getEncryption());
  }

  /** The plaintext size of {@code part}. */
  private static long plaintextSize(MultipartPartRow part) {
    return part.hasPlaintextSize() ? part.getPlaintextSize() : part.getSize();
  }

  /** {@code part} as clients see it. */
  static PartInfo partInfo(MultipartPartRow part) {
    PartInfo.Builder info = PartInfo.newBuilder().setPartNumber(part.getPartNumber()).setEtag(part.getEtag())
        .setSize(plaintextSize(part)).setModificationTimeMs(part.getModificationTimeMs())
        .setChecksum(part.getChecksum());
    if (part.hasPlaintextSize()) {
      info.setStoredSize(part.getSize());
    }
    return info.build();
  }

  /**
   * A part made of bytes {@code first..last} of another key: slices of its blocks, shared by reference. Its ETag
   * names the source and range (no byte is read, so there is no MD5 to give).
   */
  static PartInfo copyPart(Txn txn, BucketRow source, BucketRow bucket, CopyPartRequest request)
      throws OmException {
    byte[] uploadKey = checkUpload(txn, bucket, request.getKey(), request.getUploadId(), request.getPartNumber());
    KeyVersions.Located found = Keys.find(txn, source, request.getSourceKey(), request.getSourceVersionId(), false);
    Keys.checkExpected(found.row(), request.getExpectedObjectId(), request.getSourceKey());
    if (found.row().hasEncryption() || upload(txn, uploadKey, request.getUploadId()).hasEncryption()) {
      // Blocks shared between an encrypted key and another hold ciphertext where plaintext is wanted, or the reverse.
      throw new OmException(OmResult.NOT_SUPPORTED, "a part cannot yet be copied from or into an encrypted key ("
          + request.getSourceKey() + " to upload " + request.getUploadId() + ")");
    }
    KeyInfo from = Infos.file(source, Keys.path(source, request.getSourceKey()), found.row());
    long first = request.getFirstByte();
    long last = request.getLastByte() < 0 ? from.getSize() - 1 : request.getLastByte();
    if (first < 0 || last >= from.getSize() || last < first) {
      throw new OmException(OmResult.INVALID_REQUEST, "the range " + first + "-" + last + " is not within the "
          + from.getSize() + " bytes of " + request.getSourceKey());
    }
    List<KeyBlock> slices = slice(from.getBlocksList(), first, last);
    String etag = "\"" + HexFormat.of().formatHex(md5().digest((from.getObjectId() + ":" + from.getUpdateId() + ":"
        + first + "-" + last).getBytes(StandardCharsets.UTF_8))) + "\"";
    MultipartPartRow part = store(txn, bucket, request.getKey(), request.getUploadId(), uploadKey, MultipartPartRow
        .newBuilder().setPartNumber(request.getPartNumber()).setEtag(etag).setSize(last - first + 1)
        .addAllBlocks(slices).setModificationTimeMs(txn.nowMillis()).setOpenId(txn.newObjectId())
        .setChecksum(request.getChecksum()).build());
    BlockRefs.share(txn, slices);
    return PartInfo.newBuilder().setPartNumber(part.getPartNumber()).setEtag(etag).setSize(part.getSize())
        .setModificationTimeMs(part.getModificationTimeMs()).setChecksum(part.getChecksum()).build();
  }

  /** Checks the part number, and (as advice, unrecorded) that the upload exists; returns the upload row's key. */
  private static byte[] checkUpload(Txn txn, BucketRow bucket, String key, String uploadId, int number)
      throws OmException {
    if (number < 1 || number > MAX_PART_NUMBER) {
      throw new OmException(OmResult.INVALID_REQUEST, "part numbers go from 1 to " + MAX_PART_NUMBER);
    }
    byte[] uploadKey = MultipartKeys.upload(bucket, key, uploadId);
    txn.unrecorded(t -> upload(t, uploadKey, uploadId));
    return uploadKey;
  }

  /**
   * Stores a part, queueing the blocks of the part it replaces (unless it is the same part committed again), and
   * rewrites the upload row at commit, failing if the upload is gone by then.
   */
  private static MultipartPartRow store(Txn txn, BucketRow bucket, String key, String uploadId, byte[] uploadKey,
      MultipartPartRow part) throws OmException {
    byte[] partKey = MultipartKeys.part(uploadId, part.getPartNumber());
    Optional<MultipartPartRow> old = txn.get(OmTable.MULTIPART_PARTS, partKey, MultipartPartRow.parser());
    if (old.isPresent() && old.get().getOpenId() != part.getOpenId()) {
      DeletedKeys.queue(txn, FsoTree.name(bucket) + "/" + key + "#part" + part.getPartNumber(),
          old.get().getBlocksList());
    }
    txn.put(OmTable.MULTIPART_PARTS, partKey, part);
    txn.replace(OmTable.MULTIPART_UPLOADS, uploadKey, (current, effects) -> {
      if (current == null) {
        throw noSuchUpload(uploadId);
      }
      return parseUpload(current);
    });
    return part;
  }

  /** The parts of {@code blocks} holding the key's bytes {@code first..last}. */
  static List<KeyBlock> slice(List<KeyBlock> blocks, long first, long last) {
    List<KeyBlock> slices = new ArrayList<>();
    long start = 0;
    for (KeyBlock b : blocks) {
      long end = start + b.getLength() - 1;
      if (end >= first && start <= last) {
        long from = Math.max(first, start);
        long to = Math.min(last, end);
        slices.add(b.toBuilder().setOffset(b.getOffset() + from - start).setLength(to - from + 1)
            .setBlockLength(KeyBlocks.wholeLength(b)).build());
      }
      start = end + 1;
    }
    return slices;
  }

  /**
   * Joins the listed parts into the key. Completing an upload again with the same parts answers the key it made,
   * as S3 does, as long as that is still the key's latest version.
   */
  static KeyInfo complete(Txn txn, BucketRow bucket, CompleteMultipartUploadRequest listed) throws OmException {
    CompleteMultipartUploadRequest request = eachPartOnce(listed);
    byte[] uploadKey = MultipartKeys.upload(bucket, request.getKey(), request.getUploadId());
    Optional<MultipartUploadRow> found = txn.get(OmTable.MULTIPART_UPLOADS, uploadKey, MultipartUploadRow.parser());
    if (found.isEmpty()) {
      return completedBefore(txn, bucket, request).orElseThrow(() -> noSuchUpload(request.getUploadId()));
    }
    MultipartUploadRow upload = found.get();
    if (!request.getCustomerKeyCheck().equals(upload.getEncryption().getCustomerKeyCheck())) {
      throw new OmException(OmResult.INVALID_REQUEST, upload.getEncryption().getKind() == EncryptionKind.SSE_C
          ? "upload " + request.getUploadId() + " is encrypted with a customer's key (SSE-C): it is completed with"
              + " that key" : "upload " + request.getUploadId() + " is not encrypted with a customer's key");
    }
    if (request.getPartsCount() == 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "a multipart upload is completed with at least one part");
    }
    List<KeyBlock> blocks = new ArrayList<>();
    List<PartInfo> joined = new ArrayList<>();
    MessageDigest md5s = md5();
    long size = 0;
    for (int i = 0; i < request.getPartsCount(); i++) {
      PartInfo wanted = request.getParts(i);
      MultipartPartRow part = txn.get(OmTable.MULTIPART_PARTS, MultipartKeys.part(request.getUploadId(),
          wanted.getPartNumber()), MultipartPartRow.parser()).orElseThrow(() -> invalidPart(wanted.getPartNumber()));
      if (!unquoted(part.getEtag()).equals(unquoted(wanted.getEtag()))
          || (!wanted.getChecksum().isEmpty() && !wanted.getChecksum().equals(part.getChecksum()))) {
        throw invalidPart(wanted.getPartNumber());
      }
      if (i < request.getPartsCount() - 1 && plaintextSize(part) < request.getMinPartSize()) {
        throw new OmException(OmResult.ENTITY_TOO_SMALL, "part " + wanted.getPartNumber() + " has "
            + plaintextSize(part) + " bytes, less than the minimum of " + request.getMinPartSize());
      }
      blocks.addAll(part.getBlocksList());
      joined.add(partInfo(part));
      size += part.getSize();
      md5s.update(hexOrText(unquoted(part.getEtag())));
    }
    String etag = "\"" + HexFormat.of().formatHex(md5s.digest()) + "-" + request.getPartsCount() + "\"";
    OpenKeyRow.Builder open = joinedKey(txn, bucket, upload, request).putAllMetadata(request.getMetadataMap())
        .putMetadata(OpenKeys.ETAG, etag).addAllJoinedParts(joined);
    if (upload.hasEncryption()) {
      open.setEncryption(upload.getEncryption());
    }
    KeyInfo key = commitJoined(txn, bucket, open.build(), blocks, size);
    removeUpload(txn, bucket, uploadKey, upload, request.getPartsList());
    return key;
  }

  /**
   * The request with its parts in ascending order, each once: a part number listed twice in a row counts with its
   * last entry, as S3 takes it (a part sent again while its first upload was still running is listed by both).
   */
  private static CompleteMultipartUploadRequest eachPartOnce(CompleteMultipartUploadRequest request)
      throws OmException {
    List<PartInfo> parts = new ArrayList<>();
    for (PartInfo wanted : request.getPartsList()) {
      int previous = parts.isEmpty() ? 0 : parts.get(parts.size() - 1).getPartNumber();
      if (wanted.getPartNumber() < previous || wanted.getPartNumber() < 1) {
        throw new OmException(OmResult.INVALID_PART_ORDER, "parts must be listed in ascending order");
      }
      if (wanted.getPartNumber() == previous) {
        parts.remove(parts.size() - 1);
      }
      parts.add(wanted);
    }
    return parts.size() == request.getPartsCount() ? request
        : request.toBuilder().clearParts().addAllParts(parts).build();
  }

  /** The key an upload makes, with the conditions Complete put on the key it replaces. */
  private static OpenKeyRow.Builder joinedKey(Txn txn, BucketRow bucket, MultipartUploadRow upload,
      CompleteMultipartUploadRequest request) throws OmException {
    boolean flat = bucket.getLayout() == BucketLayout.OBJECT_STORE;
    return KeyReplication.ofJoinedKey(OpenKeyRow.newBuilder(), upload).setOpenId(txn.newObjectId())
        .setBucketId(bucket.getObjectId()).setPath(flat ? upload.getKey() : Names.join(Names.split(upload.getKey())))
        .setOwner(upload.getOwner()).setCreationTimeMs(upload.getCreationTimeMs())
        .putAllMetadata(upload.getMetadataMap()).setCreateParents(true).setAcl(upload.getAcl())
        .setGrants(upload.getGrants())
        .setJoinedUploadId(upload.getUploadId()).setIfMatch(request.getIfMatch())
        .setIfNoneMatch(request.getIfNoneMatch());
  }

  /** The key an upload completed before, if the request lists the parts it was made of. */
  private static Optional<KeyInfo> completedBefore(Txn txn, BucketRow bucket, CompleteMultipartUploadRequest request)
      throws OmException {
    KeyVersions.Located latest;
    try {
      latest = Keys.find(txn, bucket, request.getKey(), "", false);
    } catch (OmException e) {
      if (e.result() == OmResult.KEY_NOT_FOUND || e.result() == OmResult.DIRECTORY_NOT_FOUND
          || e.result() == OmResult.NOT_A_FILE || e.result() == OmResult.NOT_A_DIRECTORY) {
        return Optional.empty();
      }
      throw e;
    }
    FileRow row = latest.row();
    if (!row.getUploadId().equals(request.getUploadId()) || row.getPartsCount() != request.getPartsCount()) {
      return Optional.empty();
    }
    for (int i = 0; i < row.getPartsCount(); i++) {
      PartInfo made = row.getParts(i);
      PartInfo asked = request.getParts(i);
      if (made.getPartNumber() != asked.getPartNumber()
          || !unquoted(made.getEtag()).equals(unquoted(asked.getEtag()))) {
        return Optional.empty();
      }
    }
    return Optional.of(Infos.file(bucket, Keys.path(bucket, request.getKey()), row));
  }

  private static KeyInfo commitJoined(Txn txn, BucketRow bucket, OpenKeyRow open, List<KeyBlock> blocks, long size)
      throws OmException {
    boolean flat = bucket.getLayout() == BucketLayout.OBJECT_STORE;
    CommitKeyRequest joined = CommitKeyRequest.newBuilder().setSize(size).addAllBlocks(blocks).build();
    return flat ? FlatKeys.commit(txn, bucket, open, joined) : FsoChanges.commit(txn, bucket, open, joined);
  }

  static void abort(Txn txn, BucketRow bucket, String key, String uploadId) throws OmException {
    byte[] uploadKey = MultipartKeys.upload(bucket, key, uploadId);
    removeUpload(txn, bucket, uploadKey, upload(txn, uploadKey, uploadId), List.of());
  }

  /** Deletes the upload and its parts; the blocks of parts not in {@code kept} are queued for deletion. */
  private static void removeUpload(Txn txn, BucketRow bucket, byte[] uploadKey, MultipartUploadRow upload,
      List<PartInfo> kept) throws OmException {
    txn.delete(OmTable.MULTIPART_UPLOADS, uploadKey);
    Set<Integer> keptNumbers = new HashSet<>();
    kept.forEach(p -> keptNumbers.add(p.getPartNumber()));
    byte[] prefix = MultipartKeys.partsOf(upload.getUploadId());
    List<byte[]> keys = new ArrayList<>();
    List<MultipartPartRow> parts = new ArrayList<>();
    txn.scan(OmTable.MULTIPART_PARTS, prefix, prefix, MultipartPartRow.parser(), (k, part) -> {
      keys.add(k);
      parts.add(part);
      return true;
    });
    for (int i = 0; i < keys.size(); i++) {
      txn.delete(OmTable.MULTIPART_PARTS, keys.get(i));
      if (!keptNumbers.contains(parts.get(i).getPartNumber())) {
        DeletedKeys.queue(txn, FsoTree.name(bucket) + "/" + upload.getKey() + "#part" + parts.get(i).getPartNumber(),
            parts.get(i).getBlocksList());
      }
    }
  }

  /** The upload {@code uploadId} of {@code key}, or NO_SUCH_MULTIPART_UPLOAD. */
  static MultipartUploadRow upload(Txn txn, BucketRow bucket, String key, String uploadId) throws OmException {
    return upload(txn, MultipartKeys.upload(bucket, key, uploadId), uploadId);
  }

  private static MultipartUploadRow upload(Txn txn, byte[] uploadKey, String uploadId) throws OmException {
    return txn.get(OmTable.MULTIPART_UPLOADS, uploadKey, MultipartUploadRow.parser())
        .orElseThrow(() -> noSuchUpload(uploadId));
  }

  private static MultipartUploadRow parseUpload(byte[] payload) throws OmException {
    try {
      return MultipartUploadRow.parseFrom(payload);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "unreadable multipart upload row: " + e.getMessage());
    }
  }

  private static OmException noSuchUpload(String uploadId) {
    return new OmException(OmResult.NO_SUCH_UPLOAD, "no multipart upload " + uploadId + " (completed, aborted or"
        + " never started)");
  }

  private static OmException invalidPart(int number) {
    return new OmException(OmResult.INVALID_PART, "part " + number + " was not uploaded, or has another ETag");
  }

  private static String unquoted(String etag) {
    return etag.replace("\"", "");
  }

  /** An MD5 ETag's bytes (what S3 hashes for a multipart ETag); any other ETag's text. */
  private static byte[] hexOrText(String etag) {
    try {
      return HexFormat.of().parseHex(etag);
    } catch (IllegalArgumentException e) {
      return etag.getBytes(StandardCharsets.UTF_8);
    }
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }
}
