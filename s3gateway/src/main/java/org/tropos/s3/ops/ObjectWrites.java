package org.tropos.s3.ops;

import static org.tropos.s3.auth.RequestAuthenticator.UNSIGNED_PAYLOAD;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import org.tropos.client.KeyOutputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.auth.AwsChunkedInputStream;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.auth.SigV4;
import org.tropos.s3.checksum.ChecksumAlgorithm;
import org.tropos.s3.checksum.DeclaredChecksum;
import org.tropos.s3.checksum.MultipartChecksum;
import org.tropos.s3.checksum.ObjectChecksum;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * PutObject and DeleteObject. A body streams straight from the client into the block data path and is committed
 * only after its length, SHA-256 (when signed), chunk signatures (aws-chunked) and Content-MD5 (when sent) check
 * out, and after its conditions ({@code If-Match}, {@code If-None-Match}) hold at commit; otherwise the previous
 * object stays. It is encrypted at rest as asked or as its bucket's default says ({@link ServerSideEncryption}).
 * Headers asking for what we do not do are refused first ({@link WriteRequestChecks}).
 */
final class ObjectWrites {
  /** S3's largest object written by one PUT. */
  static final long MAX_PUT_BYTES = 5L << 30;
  private static final int BUFFER = 1 << 20;

  private final TroposClient om;
  private final BucketOps buckets;
  private final AclRequests acls;

  ObjectWrites(TroposClient om, BucketOps buckets, AclRequests acls) {
    this.om = om;
    this.buckets = buckets;
    this.acls = acls;
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    WriteRequestChecks.checkKey(request.key());
    // Who may write is decided before what the request asks is: a caller refused is told so, whatever it asks.
    TargetBucket bucket = buckets.writeTarget(request, caller, buckets.requireWrite(request, caller, false));
    WriteRequestChecks.checkHeaders(request);
    if (request.key().endsWith("/") && bucket.get(false).getLayout() == BucketLayout.FILE_SYSTEM_OPTIMIZED) {
      putDirectory(request, bucket.get(false), out);
      return;
    }
    S3Acl acl = acls.forWrite(request, caller.accessId(), bucket.get(false));
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().putAllMetadata(ObjectMetadata.of(request))
        .putAllMetadata(TaggingOps.asMetadata(TaggingOps.fromHeader(request.header("x-amz-tagging"))))
        .setAcl(acl.canned()).setGrants(acl.given());
    open.setEncryption(ServerSideEncryption.asked(request).request());
    buckets.storageClasses().apply(request.header(StorageClasses.HEADER), open);
    conditions(request, open);
    Stored stored = upload(request, caller, bucket, open);
    out.headers().set("ETag", ObjectMetadata.etag(stored.key()));
    ServerSideEncryption.describe(stored.key(), out, request::header);
    stored.checksum().addTo(out.headers());
    Versions.written(stored.key(), out);
    out.send(200, new byte[0], null);
  }

  /**
   * PutObject of a key ending in '/' in an FSO bucket (a folder marker, as S3A's mkdirs and pyarrow write them): the
   * directory, with its parents; one that exists already is kept. It holds no bytes, so a body is refused.
   */
  private void putDirectory(S3Request request, BucketInfo bucket, S3Response out) throws S3Error, IOException {
    String length = request.header("x-amz-decoded-content-length");
    if (length == null) {
      length = request.header("content-length");
    }
    if (length == null || number(length, "content-length") != 0) {
      throw S3ErrorCode.INVALID_REQUEST.error("The key " + S3Error.quote(request.key()) + " ends in '/': in this"
          + " FILE_SYSTEM_OPTIMIZED bucket it names a directory, which holds no bytes.");
    }
    request.acceptBody();
    request.body().transferTo(OutputStream.nullOutputStream()); // an aws-chunked empty body's framing
    createDirectory(om, buckets.volume(), bucket.getName(), request.key());
    out.headers().set("ETag", ObjectMetadata.EMPTY_ETAG);
    out.send(200, new byte[0], null);
  }

  /** The directory {@code key} (ending in '/') names in an FSO bucket, with its parents; kept if it exists. */
  static KeyInfo createDirectory(TroposClient om, String volume, String bucket, String key) throws S3Error {
    try {
      return om.createDirectory(volume, bucket, key);
    } catch (OmException e) {
      // FILE_ALREADY_EXISTS here: the directory's own name is a file.
      throw e.result() == OmResult.FILE_ALREADY_EXISTS ? parentIsObject(key) : writeRefusal(e, bucket, key);
    }
  }

  /**
   * The S3 error for a write the OM refused: in an FSO bucket a file where a directory is, or the reverse, is a
   * conflict S3 has no word for, named as such; the rest as any OM failure.
   */
  private static S3Error writeRefusal(OmException e, String bucket, String key) {
    return switch (e.result()) {
      case NOT_A_FILE -> S3ErrorCode.OBJECT_EXISTS_AS_DIRECTORY.error("The key " + S3Error.quote(key) + " names a"
          + " directory in this FILE_SYSTEM_OPTIMIZED bucket: a file cannot have its name.");
      case NOT_A_DIRECTORY -> parentIsObject(key);
      default -> OmCalls.translate(e, bucket, key);
    };
  }

  private static S3Error parentIsObject(String key) {
    return S3ErrorCode.PARENT_IS_OBJECT.error("A part of the path " + S3Error.quote(key) + " is a file in this"
        + " FILE_SYSTEM_OPTIMIZED bucket: it cannot also be a directory.");
  }

  /**
   * If-Match and If-None-Match of a write, checked by the OM when it commits: If-Match on a key that does not
   * exist is NoSuchKey, a condition that does not hold PreconditionFailed.
   */
  static void conditions(S3Request request, OpenKeyRequest.Builder open) {
    String ifNoneMatch = request.header("if-none-match");
    if (ifNoneMatch != null) {
      open.setIfNoneMatch(ifNoneMatch.strip());
    }
    String ifMatch = request.header("if-match");
    if (ifMatch != null) {
      open.setIfMatch(ifMatch.strip());
    }
  }

  /**
   * Streams the body into a new key (or part) opened with {@code open}'s settings, and commits it only after
   * the length, the SHA-256 (when signed), the chunk signatures (aws-chunked), the Content-MD5 (when sent) and the
   * checksum declared (header or trailer) check out; returns the key committed (a part: its size and ETag) and the
   * checksum kept with it.
   */
  Stored upload(S3Request request, Caller caller, TargetBucket bucket, OpenKeyRequest.Builder open)
      throws S3Error, IOException {
    DeclaredChecksum declared = DeclaredChecksum.of(request);
    String payloadHash = payloadHash(request, caller);
    boolean chunked = payloadHash.startsWith("STREAMING-");
    long length = length(request, chunked ? "x-amz-decoded-content-length" : "content-length");
    InputStream body = chunked ? new AwsChunkedInputStream(request.body(), caller, payloadHash,
        request.header("x-amz-trailer")) : request.body();
    request.acceptBody();
    // A signed aws-chunked body's chunks are verified as they stream; only a body signed whole is hashed here.
    boolean signedWhole = !chunked && !payloadHash.equals(UNSIGNED_PAYLOAD);
    return store(request.bucket(), request.key(), caller, bucket, open, body, length, signedWhole, declared,
        digests -> {
      if (chunked && body.read() >= 0) {
        throw S3ErrorCode.INVALID_REQUEST.error("The aws-chunked body holds more than x-amz-decoded-content-length"
            + " bytes");
      }
      if (signedWhole && !payloadHash.equals(HexFormat.of().formatHex(digests.sha256()))) {
        throw S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH.error();
      }
      String contentMd5 = request.header("content-md5");
      if (contentMd5 != null && !contentMd5.strip().equals(Base64.getEncoder().encodeToString(digests.md5()))) {
        throw S3ErrorCode.BAD_DIGEST.error();
      }
    });
  }

  /**
   * The MD5, (when asked for, else null) the SHA-256, and the declared flexible checksum of a body, computed as it
   * streamed.
   */
  record Digests(byte[] md5, byte[] sha256, byte[] checksum) {
  }

  /** A key (or part) committed, and the checksum kept with it. */
  record Stored(KeyInfo key, ObjectChecksum checksum) {
  }

  /** The bucket a write goes to; {@code fresh}: read from the OM now (OpenKey found it changed since). */
  @FunctionalInterface
  interface TargetBucket {
    BucketInfo get(boolean fresh) throws S3Error;
  }

  /** What must hold of a body once it has streamed, for it to be committed. */
  @FunctionalInterface
  interface BodyCheck {
    void check(Digests digests) throws S3Error, IOException;
  }

  /**
   * Streams {@code length} bytes of {@code body} (-1: all of it) into a new key opened with {@code open}'s
   * settings, and commits it only once {@code check} accepts what arrived (its SHA-256 too if {@code withSha256})
   * and it matches the checksum {@code declared} (a trailer's value read from an aws-chunked body); otherwise
   * nothing is stored. Returns the key committed (a part: its size and ETag) and its checksum.
   */
  Stored store(String bucketName, String keyName, Caller caller, TargetBucket bucket, OpenKeyRequest.Builder open,
      InputStream body, long length, boolean withSha256, DeclaredChecksum declared, BodyCheck check)
      throws S3Error, IOException {
    open.setVolume(buckets.volume()).setKey(keyName).setSize(Math.max(0, length)).setCreateParents(true)
        .setOwner(caller.accessId());
    KeyOutputStream key = open(bucketName, keyName, bucket, open, length);
    boolean committed = false;
    try {
      Digests digests = copy(body, key, length, withSha256, declared.algorithm().newHasher());
      check.check(digests);
      ObjectChecksum checksum = declared.verify(digests.checksum(),
          body instanceof AwsChunkedInputStream chunked ? chunked.trailer() : null);
      Map<String, String> metadata = new HashMap<>(checksum.asMetadata());
      metadata.put(ObjectMetadata.ETAG, "\"" + HexFormat.of().formatHex(digests.md5()) + "\"");
      if (open.getPartNumber() > 0) {
        metadata.put(ObjectMetadata.PART_CHECKSUM, MultipartChecksum.partEntry(checksum));
      }
      key.setCommitMetadata(metadata);
      commit(key, bucket, open);
      committed = true;
      return new Stored(key.committedKey(), checksum);
    } catch (IOException e) {
      if (e.getCause() instanceof OmException failure) {
        throw writeRefusal(failure, bucketName, keyName);
      }
      throw e;
    } finally {
      if (!committed) {
        key.abort();
      }
    }
  }

  /**
   * Opens the key in the bucket as its access was decided on; when the OM finds the bucket changed since it was
   * read (its ACL, owner, or a bucket recreated under the name), reads it again, decides again and opens once more.
   */
  private KeyOutputStream open(String bucketName, String keyName, TargetBucket target, OpenKeyRequest.Builder open,
      long length) throws S3Error {
    BucketInfo bucket = target.get(false);
    try {
      // A body of known length, when small, is written first and its key opened with its commit (one OM call).
      return length >= 0 ? om.createSmallKey(in(bucket, open)) : om.createKey(in(bucket, open));
    } catch (OmException e) {
      if (e.result() != OmResult.BUCKET_CHANGED) {
        throw writeRefusal(e, bucketName, keyName);
      }
    }
    BucketInfo now = target.get(true);
    return OmCalls.call(bucketName, keyName, () -> om.createKey(in(now, open)));
  }

  /**
   * Commits the key; one opened with its commit whose bucket changed since its access was decided (its ACL, owner,
   * or a bucket recreated under the name) is decided again on the bucket as it is now and committed once more.
   */
  private static void commit(KeyOutputStream key, TargetBucket target, OpenKeyRequest.Builder open)
      throws S3Error, IOException {
    try {
      key.close();
    } catch (IOException e) {
      if (!key.opensWithCommit() || !(e.getCause() instanceof OmException failure)
          || failure.result() != OmResult.BUCKET_CHANGED) {
        throw e;
      }
      key.commitAs(in(target.get(true), open));
    }
  }

  /**
   * The request to open {@code open} in {@code bucket} with. A key is pinned to the replication its bytes are
   * written with (its storage class's, else its bucket's when first opened), whatever the bucket says when it is
   * opened again; a part is stored as its upload, as the OM knows it.
   */
  private static OpenKeyRequest in(BucketInfo bucket, OpenKeyRequest.Builder open) {
    boolean pinned = open.hasEc() || open.getFactor() != ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED;
    if (!pinned && open.getUploadId().isEmpty()) {
      open.setFactor(bucket.getFactor());
      if (bucket.hasEc()) {
        open.setEc(bucket.getEc());
      }
    }
    return ServerSideEncryption.withDefault(open.setBucket(bucket.getName())
        .setExpectedBucket(RecentBuckets.expectation(bucket)).build(), bucket);
  }

  /**
   * What the body is, as its signature fixed it; for a caller whose signature does not cover the body
   * (anonymous, Signature V2), what the request declares: an aws-chunked body with an unsigned trailer is
   * decoded (its checksum still checked), one with chunk signatures it cannot have refused.
   */
  private static String payloadHash(S3Request request, Caller caller) throws S3Error {
    String declared = request.header("x-amz-content-sha256");
    if (!caller.payloadHash().equals(UNSIGNED_PAYLOAD) || declared == null
        || !declared.strip().startsWith("STREAMING-")) {
      return caller.payloadHash();
    }
    if (!declared.strip().equals(AwsChunkedInputStream.UNSIGNED_TRAILER)) {
      throw S3ErrorCode.INVALID_REQUEST.error("A signed aws-chunked body needs a Signature V4 request");
    }
    return declared.strip();
  }

  /**
   * The body's length from {@code header}; -1 (read to the end) for a body sent with chunked transfer encoding
   * and no length; MissingContentLength otherwise, EntityTooLarge past S3's limit of one PUT.
   */
  private static long length(S3Request request, String header) throws S3Error {
    String value = request.header(header);
    if (value == null) {
      String encoding = request.header("transfer-encoding");
      if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")
          && !header.equals("x-amz-decoded-content-length")) {
        return -1;
      }
      throw S3ErrorCode.MISSING_CONTENT_LENGTH.error("You must provide the " + header + " HTTP header.");
    }
    long length;
    try {
      length = Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error(header + " must be a number");
    }
    if (length < 0) {
      throw S3ErrorCode.INVALID_ARGUMENT.error(header + " must be >= 0");
    }
    if (length > MAX_PUT_BYTES) {
      throw S3ErrorCode.ENTITY_TOO_LARGE.error("Your proposed upload exceeds the maximum allowed size of "
          + MAX_PUT_BYTES + " bytes; upload it in parts");
    }
    return length;
  }

  private static long number(String value, String header) throws S3Error {
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error(header + " must be a number");
    }
  }

  /** Copies {@code length} bytes (-1: to the end) of the body into the key, digesting them. */
  private static Digests copy(InputStream body, KeyOutputStream key, long length, boolean withSha256,
      ChecksumAlgorithm.Hasher checksum) throws S3Error, IOException {
    MessageDigest md5 = md5();
    MessageDigest sha256 = withSha256 ? SigV4.sha256() : null;
    // No larger than the body: a small object's PUT need not allocate (and zero) a whole buffer.
    byte[] buffer = new byte[(int) Math.max(1, length < 0 ? BUFFER : Math.min(BUFFER, length))];
    long left = length < 0 ? Long.MAX_VALUE : length;
    long copied = 0;
    while (left > 0) {
      // Whole buffers, not the network's pieces (at most 64 KiB): the key stream below then works on large writes
      // (an encrypting one seals whole segments where they lie).
      int n = body.readNBytes(buffer, 0, (int) Math.min(buffer.length, left));
      if (n == 0) {
        if (length < 0) {
          break;
        }
        throw S3ErrorCode.INCOMPLETE_BODY.error();
      }
      md5.update(buffer, 0, n);
      if (sha256 != null) {
        sha256.update(buffer, 0, n);
      }
      checksum.update(buffer, 0, n);
      key.write(buffer, 0, n);
      left -= n;
      copied += n;
      if (copied > MAX_PUT_BYTES) {
        throw S3ErrorCode.ENTITY_TOO_LARGE.error();
      }
    }
    return new Digests(md5.digest(), sha256 == null ? null : sha256.digest(), checksum.value());
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }

  /**
   * DeleteObject: the key's one version, or in a versioned bucket a new delete marker, or with {@code versionId}
   * that version for good. Deleting what does not exist succeeds, as in S3.
   */
  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.WRITE);
    DeleteKeyRequest.Builder delete = DeleteKeyRequest.newBuilder().setVersionId(Versions.requested(request));
    Access.checkVersionDelete(bucket, caller, delete.getVersionId());
    String ifMatch = request.header("if-match");
    if (ifMatch != null) {
      delete.setIfMatch(ifMatch.strip());
    }
    String size = request.header("x-amz-if-match-size");
    if (size != null) {
      delete.setIfMatchSize(number(size, "x-amz-if-match-size"));
    }
    String modified = request.header("x-amz-if-match-last-modified-time");
    if (modified != null) {
      java.time.Instant time = S3Time.parseHttp(modified);
      if (time == null) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("x-amz-if-match-last-modified-time must be an HTTP date");
      }
      delete.setIfMatchModificationTimeMs(time.toEpochMilli());
    }
    DeleteKeyResponse deleted = delete(om, buckets.volume(), request.bucket(), request.key(), delete, caller);
    if (deleted.getDeleteMarker()) {
      out.headers().set("x-amz-delete-marker", "true");
    }
    if (!deleted.getVersionId().isEmpty()) {
      out.headers().set("x-amz-version-id", deleted.getVersionId());
    }
    out.send(204, new byte[0], null);
  }

  /**
   * Deletes a key (or the version, with the conditions, {@code delete} names); a key or version that does not
   * exist is no failure.
   */
  static DeleteKeyResponse delete(TroposClient om, String volume, String bucket, String key,
      DeleteKeyRequest.Builder delete, Caller caller) throws S3Error {
    String versionId = delete.getVersionId();
    try {
      // S3 keys name files: a directory of an FSO bucket is deleted only as "name/", and one that holds something
      // loses only its folder marker, as S3 keeps what is under a deleted marker.
      return om.deleteKey(delete.setVolume(volume).setBucket(bucket).setKey(key).setOwner(caller.accessId())
          .setFileOnly(true).build());
    } catch (OmException e) {
      if (e.result() == OmResult.KEY_NOT_FOUND || e.result() == OmResult.DIRECTORY_NOT_FOUND
          || e.result() == OmResult.VERSION_NOT_FOUND) {
        return DeleteKeyResponse.newBuilder().setVersionId(versionId).build();
      }
      if (e.result() == OmResult.INVALID_REQUEST && !versionId.isEmpty()) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("Invalid version id specified");
      }
      throw OmCalls.translate(e, bucket, key);
    }
  }
}
