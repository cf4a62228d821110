package org.tropos.s3.ops;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.tropos.client.KeyInputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.acl.S3Actions;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.checksum.ChecksumAlgorithm;
import org.tropos.s3.checksum.DeclaredChecksum;
import org.tropos.s3.checksum.ObjectChecksum;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;

/**
 * CopyObject inside the cluster: the OM gives the copy the source's blocks (reference counted), so no byte moves
 * and an S3A rename (copy + delete) costs the same for 1 KB and 1 GB. A copy stored otherwise than its source
 * (encrypted otherwise, or under a customer's key on either side) cannot share its blocks: its bytes stream through
 * the gateway, decrypted from the source and written as a new object is.
 */
final class CopyOps {
  private final TroposClient om;
  private final BucketOps buckets;
  private final AclRequests acls;
  private final ObjectWrites writes;

  CopyOps(TroposClient om, BucketOps buckets, AclRequests acls, ObjectWrites writes) {
    this.om = om;
    this.buckets = buckets;
    this.acls = acls;
    this.writes = writes;
  }

  /** The bucket, key and version of an x-amz-copy-source header ({@code [/]bucket/key[?versionId=...]}). */
  record Source(String bucket, String key, String versionId) {
    static Source parse(String header) throws S3Error {
      String value = header.strip();
      String versionId = "";
      int query = value.indexOf('?');
      if (query >= 0) {
        List<String> ids = new QueryStringDecoder(value.substring(query), StandardCharsets.UTF_8).parameters()
            .get("versionId");
        versionId = ids == null || ids.isEmpty() ? "" : ids.get(0);
        value = value.substring(0, query);
      }
      value = URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
      if (value.startsWith("/")) {
        value = value.substring(1);
      }
      int slash = value.indexOf('/');
      if (slash <= 0 || slash == value.length() - 1) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("Copy Source must mention the source bucket and key:"
            + " sourcebucket/sourcekey");
      }
      return new Source(value.substring(0, slash), value.substring(slash + 1), versionId);
    }

    /**
     * The source object, if {@code caller} may read it (and its bucket has the owner the request expects), as the
     * OM found it: what {@link TroposClient#readKey} reads.
     */
    LookupKeyResponse lookup(TroposClient om, BucketOps buckets, S3Request request, Caller caller) throws S3Error {
      BucketInfo sourceBucket = buckets.find(bucket, request.header("x-amz-source-expected-bucket-owner"));
      LookupKeyResponse found = ObjectReads.lookup(om, buckets.volume(), sourceBucket, key, versionId, caller, false);
      Access.checkRead(sourceBucket, found.getKey(), caller.asking(S3Actions.onVersion(S3Actions.GET_OBJECT,
          versionId), PolicyRequest.resource(bucket, key)));
      return found;
    }
  }

  /**
   * The copy's metadata when the request replaces the metadata or the tags: the new or the source's user
   * metadata, the new or the source's tags, and always the source's ETag (the content is the same).
   */
  private static Map<String, String> metadataOfCopy(S3Request request, KeyInfo source, boolean replace,
      boolean replaceTags) throws S3Error {
    Map<String, String> metadata = new LinkedHashMap<>();
    if (replace) {
      metadata.putAll(ObjectMetadata.of(request));
    } else {
      source.getMetadataMap().forEach((name, value) -> {
        if (!name.startsWith(TaggingOps.PREFIX)) {
          metadata.put(name, value);
        }
      });
    }
    metadata.putAll(TaggingOps.asMetadata(replaceTags ? TaggingOps.fromHeader(request.header("x-amz-tagging"))
        : TaggingOps.tagsOf(source.getMetadataMap())));
    metadata.put(ObjectMetadata.ETAG, ObjectMetadata.etag(source));
    ObjectChecksum.in(source.getMetadataMap()).ifPresent(c -> metadata.putAll(c.asMetadata()));
    return metadata;
  }

  /** x-amz-copy-source-if-match, -if-none-match, -if-modified-since, -if-unmodified-since. */
  private static void checkSourceConditions(S3Request request, KeyInfo source) throws S3Error {
    String etag = ObjectMetadata.etag(source).replace("\"", "");
    Instant modified = Instant.ofEpochMilli(source.getModificationTimeMs() / 1000 * 1000);
    String ifMatch = request.header("x-amz-copy-source-if-match");
    String ifNoneMatch = request.header("x-amz-copy-source-if-none-match");
    Instant unmodifiedSince = S3Time.parseHttp(request.header("x-amz-copy-source-if-unmodified-since"));
    Instant modifiedSince = S3Time.parseHttp(request.header("x-amz-copy-source-if-modified-since"));
    boolean holds = (ifMatch == null || ifMatch.replace("\"", "").strip().equals(etag))
        && (ifNoneMatch == null || !ifNoneMatch.replace("\"", "").strip().equals(etag))
        && (unmodifiedSince == null || ifMatch != null || !modified.isAfter(unmodifiedSince))
        && (modifiedSince == null || ifNoneMatch != null || modified.isAfter(modifiedSince));
    if (!holds) {
      throw S3ErrorCode.PRECONDITION_FAILED.error();
    }
  }

  void copy(S3Request request, Caller caller, S3Response out) throws S3Error {
    WriteRequestChecks.checkKey(request.key());
    WriteRequestChecks.checkHeaders(request);
    String storageClass = request.header(StorageClasses.HEADER);
    buckets.storageClasses().check(storageClass);
    Source source = Source.parse(request.header("x-amz-copy-source"));
    BucketInfo target = buckets.require(request, caller, Access.Permission.WRITE);
    boolean replace = "REPLACE".equalsIgnoreCase(request.header("x-amz-metadata-directive"));
    boolean replaceTags = "REPLACE".equalsIgnoreCase(request.header("x-amz-tagging-directive"));
    if (!replace && !replaceTags && source.bucket().equals(request.bucket()) && source.key().equals(request.key())
        && source.versionId().isEmpty() && storageClass == null
        && request.header(ServerSideEncryption.HEADER) == null
        && request.header(ServerSideEncryption.CUSTOMER_ALGORITHM) == null) {
      throw S3ErrorCode.INVALID_REQUEST.error("This copy request is illegal because it is trying to copy an object"
          + " to itself without changing the object's metadata, storage class, website redirect location or"
          + " encryption attributes.");
    }
    S3Acl acl = acls.forWrite(request, caller.accessId(), target);
    ServerSideEncryption.Asked encryption = ServerSideEncryption.asked(request);
    Optional<ChecksumAlgorithm> asked = checksumAsked(request);
    KeyInfo copied = OmCalls.againIfChanged(() -> {
      LookupKeyResponse found = source.lookup(om, buckets, request, caller);
      KeyInfo from = found.getKey();
      if (request.headers().names().stream().anyMatch(n -> n.toLowerCase(Locale.ROOT)
          .startsWith("x-amz-copy-source-if-"))) {
        checkSourceConditions(request, from);
      }
      if (from.getDirectory()) {
        return copyDirectory(request, target);
      }
      byte[] sourceKey = ServerSideEncryption.forCopySource(request, from);
      // A copy stored otherwise than its source (encryption, storage class) is written anew; else it shares blocks.
      if (rewrites(encryption, target, from) || buckets.storageClasses().changes(storageClass, from)) {
        Map<String, String> metadata = metadataOfCopy(request, from, replace, replaceTags);
        metadata.keySet().removeIf(name -> name.equals(ObjectMetadata.ETAG) || ObjectChecksum.isEntry(name));
        OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().putAllMetadata(metadata).setAcl(acl.canned())
            .setGrants(acl.given()).setEncryption(encryption.request());
        buckets.storageClasses().apply(storageClass, open);
        return rewrite(request, caller, target, open, found, sourceKey, 0, from.getSize(), asked.or(() ->
            ObjectChecksum.in(from.getMetadataMap()).map(ObjectChecksum::algorithm))).key();
      }
      Optional<ObjectChecksum> computed = asked.isEmpty() || hasChecksum(from, asked.get()) ? Optional.empty()
          : Optional.of(checksumOf(om, found, 0, from.getSize(), asked.get()));
      boolean newMetadata = replace || replaceTags || computed.isPresent();
      CopyKeyRequest.Builder copy = CopyKeyRequest.newBuilder().setVolume(buckets.volume())
          .setBucket(source.bucket()).setKey(source.key()).setVersionId(from.getVersionId())
          .setExpectedObjectId(from.getObjectId()).setToVolume(buckets.volume()).setToBucket(request.bucket())
          .setToKey(request.key()).setOwner(caller.accessId()).setReplaceMetadata(newMetadata).setAcl(acl.canned())
          .setGrants(acl.given());
      if (newMetadata) {
        Map<String, String> metadata = metadataOfCopy(request, from, replace, replaceTags);
        computed.ifPresent(c -> {
          metadata.keySet().removeIf(ObjectChecksum::isEntry);
          metadata.putAll(c.asMetadata());
        });
        copy.putAllMetadata(metadata);
      }
      return OmCalls.call(source.bucket(), source.key(), () -> om.copyKey(copy.build()));
    });
    Versions.written(copied, out);
    ServerSideEncryption.describe(copied, out, request::header);
    if (!source.versionId().isEmpty()) {
      out.headers().set("x-amz-copy-source-version-id", source.versionId());
    }
    Xml result = Xml.document("CopyObjectResult").element("LastModified",
        S3Time.iso(copied.getModificationTimeMs())).element("ETag", ObjectMetadata.etag(copied));
    ObjectChecksum.in(copied.getMetadataMap()).ifPresent(c -> c.addTo(result));
    out.send(200, result.close("CopyObjectResult").bytes(), "application/xml");
  }

  /**
   * Whether a copy of {@code source} asked to be encrypted as {@code asked} into {@code target} must be written anew:
   * its encryption (as asked, else the bucket's default) is not the source's, or a customer's key is involved.
   */
  private static boolean rewrites(ServerSideEncryption.Asked asked, BucketInfo target, KeyInfo source) {
    EncryptionKind from = source.getEncryption().getKind();
    EncryptionRequest to = ServerSideEncryption.of(asked, target);
    return to.getKind() != from || from == EncryptionKind.SSE_C || asked.kind() == EncryptionKind.SSE_C
        || from == EncryptionKind.SSE_KMS && !to.getKmsKeyId().equals(source.getEncryption().getKms().getKeyName());
  }

  /**
   * Writes {@code length} bytes of the source {@code found} from {@code first} (its plaintext, read with the
   * customer's {@code sourceKey} for SSE-C) into the key or part {@code open} describes, encrypted as it asks, as a
   * PUT of those bytes would be: its ETag their MD5, its checksum computed by {@code algorithm} (else S3's
   * default).
   */
  ObjectWrites.Stored rewrite(S3Request request, Caller caller, BucketInfo target, OpenKeyRequest.Builder open,
      LookupKeyResponse found, byte[] sourceKey, long first, long length, Optional<ChecksumAlgorithm> algorithm)
      throws S3Error {
    try (KeyInputStream in = sourceKey == null ? om.readKey(found) : om.readKey(found, sourceKey)) {
      in.seek(first);
      return writes.store(request.bucket(), request.key(), caller, buckets.writeTarget(request, caller, target),
          open, in, length, false, new DeclaredChecksum(algorithm.orElse(DeclaredChecksum.DEFAULT), null, false),
          digests -> { });
    } catch (IOException e) {
      throw S3ErrorCode.INTERNAL_ERROR.error("The copy source could not be copied: " + e.getMessage());
    }
  }

  /**
   * A copy of a directory of an FSO bucket (a folder marker, as S3A copies them in a rename): the directory of the
   * target's name, with its parents, when the target can be one. It holds nothing else to copy.
   */
  private KeyInfo copyDirectory(S3Request request, BucketInfo target) throws S3Error {
    if (target.getLayout() != BucketLayout.FILE_SYSTEM_OPTIMIZED || !request.key().endsWith("/")) {
      throw S3ErrorCode.INVALID_REQUEST.error("The copy source is a directory of a FILE_SYSTEM_OPTIMIZED bucket:"
          + " it can be copied only to a key ending in '/' of such a bucket.");
    }
    return ObjectWrites.createDirectory(om, buckets.volume(), target.getName(), request.key());
  }

  /** The checksum algorithm a copy asks for ({@code x-amz-checksum-algorithm}), if any. */
  private static Optional<ChecksumAlgorithm> checksumAsked(S3Request request) throws S3Error {
    String asked = request.header("x-amz-checksum-algorithm");
    if (asked == null) {
      return Optional.empty();
    }
    return Optional.of(ChecksumAlgorithm.named(asked).orElseThrow(() -> S3ErrorCode.INVALID_REQUEST
        .error("Value for x-amz-checksum-algorithm header is invalid.")));
  }

  /** Whether {@code key} keeps a checksum of {@code algorithm}, which its copy keeps too (the bytes are the same). */
  private static boolean hasChecksum(KeyInfo key, ChecksumAlgorithm algorithm) {
    return ObjectChecksum.in(key.getMetadataMap()).map(ObjectChecksum::algorithm).orElse(null) == algorithm;
  }

  /**
   * The checksum by {@code algorithm} of {@code length} bytes of {@code source} from {@code first}: a copy (or a
   * copied part) asked for one its source does not keep reads that range once, the only copy that reads data; the
   * copy itself still moves no byte.
   */
  static ObjectChecksum checksumOf(TroposClient om, LookupKeyResponse source, long first, long length,
      ChecksumAlgorithm algorithm) throws S3Error {
    ChecksumAlgorithm.Hasher hasher = algorithm.newHasher();
    byte[] buffer = new byte[(int) Math.min(1 << 20, Math.max(1, length))];
    try (KeyInputStream in = om.readKey(source)) {
      in.seek(first);
      for (long left = length; left > 0; ) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          throw new java.io.EOFException(left + " bytes short of the range");
        }
        hasher.update(buffer, 0, n);
        left -= n;
      }
    } catch (IOException e) {
      throw S3ErrorCode.INTERNAL_ERROR.error("The copy source could not be read for its checksum: " + e.getMessage());
    }
    return ObjectChecksum.fullObject(algorithm, hasher.value());
  }
}
