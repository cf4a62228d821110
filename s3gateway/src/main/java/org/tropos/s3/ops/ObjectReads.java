package org.tropos.s3.ops;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import org.tropos.client.KeyInputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.PartInfo;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.checksum.MultipartChecksum;
import org.tropos.s3.checksum.ObjectChecksum;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * GetObject and HeadObject: a version ({@code versionId}) or the latest, its bytes streamed from the data path,
 * a byte range or one part ({@code partNumber}), RFC 7232 conditions, and the response header overrides S3 lets a
 * reader ask for ({@code response-content-type}, ...).
 */
final class ObjectReads {
  private static final int MAX_PART_NUMBER = 10_000;
  /** Query parameters that set a response header of a GET, and the header each sets. */
  private static final Map<String, String> OVERRIDES = Map.of("response-content-type", "Content-Type",
      "response-content-language", "Content-Language", "response-expires", "Expires", "response-cache-control",
      "Cache-Control", "response-content-disposition", "Content-Disposition", "response-content-encoding",
      "Content-Encoding");

  private final TroposClient om;
  private final BucketOps buckets;

  ObjectReads(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  /**
   * The version of the request's key it names, with its blocks' locations (and parts if {@code withParts}). As S3
   * does, a missing key is NoSuchKey only to a caller who may list the bucket (AccessDenied to others, who must
   * not learn what exists), and a delete marker is NoSuchKey when it is the latest version, MethodNotAllowed when
   * named by its id, both with {@code x-amz-delete-marker}.
   */
  static LookupKeyResponse lookup(TroposClient om, BucketOps buckets, BucketInfo bucket, S3Request request,
      Caller caller, boolean withParts) throws S3Error {
    return lookup(om, buckets.volume(), bucket, request.key(), Versions.requested(request), caller, withParts);
  }

  /** As above, for version {@code versionId} ("" = the latest) of {@code key} in {@code bucket}. */
  static LookupKeyResponse lookup(TroposClient om, String volume, BucketInfo bucket, String key, String versionId,
      Caller caller, boolean withParts) throws S3Error {
    LookupKeyResponse found;
    try {
      found = om.lookupKey(request(volume, bucket.getName(), key, versionId, withParts).build());
    } catch (OmException e) {
      throw refusal(e, bucket, key, versionId, caller);
    }
    return answerable(found, bucket, key, versionId, caller);
  }

  /** The bucket of a read and the version of its key it names. */
  record Found(BucketInfo bucket, LookupKeyResponse key) {
  }

  /**
   * The request's bucket and the version of its key it names, as {@link BucketOps#find} and {@link #lookup} find
   * them, in one call to the OM while the key is there (most reads); only a refusal looks the bucket up again.
   */
  static Found lookupWithBucket(TroposClient om, BucketOps buckets, S3Request request, Caller caller,
      boolean withParts) throws S3Error {
    String versionId = Versions.requested(request);
    LookupKeyResponse found;
    try {
      found = om.lookupKey(request(buckets.volume(), request.bucket(), request.key(), versionId, withParts)
          .setWithBucket(true).build());
    } catch (OmException e) {
      throw refusal(e, buckets.find(request), request.key(), versionId, caller);
    }
    BucketInfo bucket = found.getBucket();
    BucketOps.checkOwner(bucket, request.header("x-amz-expected-bucket-owner"));
    return new Found(bucket, answerable(found, bucket, request.key(), versionId, caller));
  }

  private static LookupKeyRequest.Builder request(String volume, String bucket, String key, String versionId,
      boolean withParts) {
    return LookupKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key).setVersionId(versionId)
        .setAllowDeleteMarker(true).setWithParts(withParts);
  }

  /**
   * Whether {@code caller} may list the bucket under {@code key} (as {@code s3:prefix}): then it may know that the
   * key is missing (S3 says 403 otherwise).
   */
  private static boolean mayList(BucketInfo bucket, String key, Caller caller) {
    return Access.allows(bucket, caller.asking(caller.asks().asking(S3Actions.LIST_BUCKET, bucket.getName(),
        "s3:prefix", key)), Access.Permission.READ);
  }

  /** What a failed lookup answers {@code caller}. */
  private static S3Error refusal(OmException e, BucketInfo bucket, String key, String versionId, Caller caller) {
    boolean missing = e.result() == OmResult.KEY_NOT_FOUND || e.result() == OmResult.VERSION_NOT_FOUND
        || e.result() == OmResult.DIRECTORY_NOT_FOUND || e.result() == OmResult.NOT_A_FILE
        || e.result() == OmResult.NOT_A_DIRECTORY;
    if (missing && !mayList(bucket, key, caller)) {
      return S3ErrorCode.ACCESS_DENIED.error("Access Denied");
    }
    if (e.result() == OmResult.VERSION_NOT_FOUND) {
      return S3ErrorCode.NO_SUCH_VERSION.error("The specified version does not exist: " + S3Error.quote(versionId));
    }
    return OmCalls.translate(e, bucket.getName(), key);
  }

  /** The version found, unless it is a delete marker (answered as S3 does). */
  private static LookupKeyResponse answerable(LookupKeyResponse found, BucketInfo bucket, String key,
      String versionId, Caller caller) throws S3Error {
    KeyInfo marker = found.getKey();
    if (marker.getDeleteMarker() && !mayList(bucket, key, caller)) {
      throw S3ErrorCode.ACCESS_DENIED.error("Access Denied");
    }
    if (marker.getDeleteMarker()) {
      S3Error error = versionId.isEmpty() ? S3ErrorCode.NO_SUCH_KEY.error("The specified key does not exist: "
          + S3Error.quote(key)) : S3ErrorCode.METHOD_NOT_ALLOWED.error("The specified method is not allowed"
              + " against a delete marker");
      error.withHeader("x-amz-delete-marker", "true").withHeader("x-amz-version-id", marker.getVersionId());
      if (!versionId.isEmpty()) {
        error.withHeader("Last-Modified", S3Time.http(marker.getModificationTimeMs()));
      }
      throw error;
    }
    return found;
  }

  /** The version the request names, if {@code caller} may change its ACL and tags (its owner's right). */
  static KeyInfo changeable(TroposClient om, BucketOps buckets, BucketInfo bucket, S3Request request,
      Caller caller) throws S3Error {
    KeyInfo key = lookup(om, buckets, bucket, request, caller, false).getKey();
    Access.checkChange(bucket, key, caller);
    return key;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    Integer partNumber = partNumber(request);
    Found read = lookupWithBucket(om, buckets, request, caller, partNumber != null);
    BucketInfo bucket = read.bucket();
    LookupKeyResponse found = read.key();
    KeyInfo key = found.getKey();
    Access.checkRead(bucket, key, caller);
    checkPart(key, partNumber); // before the key: S3 tells a part that is not there without it
    byte[] customerKey = ServerSideEncryption.forRead(request, key);
    if (!conditionsHold(request, key, out)) {
      return;
    }
    ByteRange range = partNumber != null ? part(key, partNumber, out)
        : ByteRange.parse(request.header("range"), key.getSize());
    describe(request, bucket, key, out);
    checksum(request, key, partNumber, range == null, out);
    try (KeyInputStream in = customerKey == null ? om.readKey(found) : om.readKey(found, customerKey)) {
      if (range == null) {
        out.stream(200, key.getSize(), body -> in.transferTo(key.getSize(), body));
        return;
      }
      out.headers().set("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + key.getSize());
      in.seek(range.first());
      out.stream(206, range.length(), body -> in.transferTo(range.length(), body));
    }
  }

  void head(S3Request request, Caller caller, S3Response out) throws S3Error {
    Integer partNumber = partNumber(request);
    Found read = lookupWithBucket(om, buckets, request, caller, partNumber != null);
    BucketInfo bucket = read.bucket();
    KeyInfo key = read.key().getKey();
    Access.checkRead(bucket, key, caller);
    checkPart(key, partNumber);
    ServerSideEncryption.forRead(request, key);
    if (!conditionsHold(request, key, out)) {
      return;
    }
    long length = key.getSize();
    if (partNumber != null) {
      ByteRange range = part(key, partNumber, out);
      length = range == null ? key.getSize() : range.length();
    } else {
      ByteRange range = ByteRange.parse(request.header("range"), key.getSize());
      if (range != null) {
        out.headers().set("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + key.getSize());
        describe(request, bucket, key, out);
        out.sendHead(206, range.length());
        return;
      }
    }
    describe(request, bucket, key, out);
    checksum(request, key, partNumber, true, out);
    out.sendHead(partNumber != null && key.getPartCount() > 0 ? 206 : 200, length);
  }

  /**
   * The checksum of what the response carries, when the request asks for it (x-amz-checksum-mode: ENABLED): the
   * object's, or with {@code partNumber} of a multipart object that part's; a byte range has none of its own.
   */
  private static void checksum(S3Request request, KeyInfo key, Integer partNumber, boolean whole, S3Response out) {
    if (!"ENABLED".equalsIgnoreCase(request.header("x-amz-checksum-mode"))) {
      return;
    }
    if (partNumber != null && key.getPartCount() > 0) {
      // The part's own checksum, and the type of the object's.
      MultipartChecksum.ofPartEntry(key.getParts(partNumber - 1).getChecksum()).ifPresent(c -> {
        out.headers().set(c.algorithm().header(), c.value());
        ObjectChecksum.in(key.getMetadataMap()).ifPresent(o -> out.headers().set(ObjectChecksum.TYPE,
            o.type().name()));
      });
    } else if (whole) {
      ObjectChecksum.in(key.getMetadataMap()).ifPresent(c -> c.addTo(out.headers()));
    }
  }

  private void describe(S3Request request, BucketInfo bucket, KeyInfo key, S3Response out) {
    ObjectMetadata.describe(key, out);
    String storageClass = buckets.storageClasses().of(key);
    if (!storageClass.equals(StorageClasses.STANDARD)) {
      out.headers().set(StorageClasses.HEADER, storageClass); // S3 names the class only when not STANDARD
    }
    ServerSideEncryption.describe(key, out, request::header);
    Versions.header(bucket, key, out);
    OVERRIDES.forEach((parameter, header) -> {
      String value = request.param(parameter);
      if (value != null) {
        out.headers().set(header, value);
      }
    });
  }

  /** The {@code partNumber} asked for, or null; InvalidRequest with a Range as well. */
  private static Integer partNumber(S3Request request) throws S3Error {
    String value = request.param("partNumber");
    if (value == null) {
      return null;
    }
    if (request.header("range") != null) {
      throw S3ErrorCode.INVALID_REQUEST.error("Cannot specify both Range header and partNumber query parameter");
    }
    try {
      int number = Integer.parseInt(value);
      if (number >= 1 && number <= MAX_PART_NUMBER) {
        return number;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw S3ErrorCode.INVALID_ARGUMENT.error("Part number must be an integer between 1 and " + MAX_PART_NUMBER
        + ", inclusive");
  }

  /**
   * The bytes of part {@code number} of a key joined by a multipart upload, with its part count in the response;
   * a key written whole is its own part 1 (null: all of it). The part is one it has ({@link #checkPart}, called
   * first).
   */
  private static ByteRange part(KeyInfo key, int number, S3Response out) throws S3Error {
    if (key.getPartCount() == 0) {
      return null;
    }
    long first = 0;
    for (PartInfo part : key.getPartsList().subList(0, number - 1)) {
      first += part.getSize();
    }
    long size = key.getParts(number - 1).getSize();
    out.headers().set("x-amz-mp-parts-count", key.getPartCount());
    out.headers().set("Content-Range", "bytes " + first + "-" + (first + size - 1) + "/" + key.getSize());
    return new ByteRange(first, first + size - 1);
  }

  /** InvalidPart unless {@code key} has part {@code number} (an object not uploaded in parts has part 1 only). */
  private static void checkPart(KeyInfo key, Integer number) throws S3Error {
    if (number == null) {
      return;
    }
    if (key.getPartCount() == 0 && number != 1) {
      throw S3ErrorCode.INVALID_PART.error("The object has no part " + number + ": it was not uploaded in parts");
    }
    if (key.getPartCount() > 0 && number > key.getPartsCount()) {
      throw S3ErrorCode.INVALID_PART.error("The object has " + key.getPartsCount() + " parts, not " + number);
    }
  }

  /** RFC 7232 conditions as S3 applies them; false once a 304 or 412 was sent. */
  static boolean conditionsHold(S3Request request, KeyInfo key, S3Response out) throws S3Error {
    String etag = ObjectMetadata.etag(key);
    Instant modified = Instant.ofEpochMilli(key.getModificationTimeMs() / 1000 * 1000);
    String ifMatch = request.header("if-match");
    String ifNoneMatch = request.header("if-none-match");
    if (ifMatch != null && !matches(ifMatch, etag)) {
      throw S3ErrorCode.PRECONDITION_FAILED.error();
    }
    Instant unmodifiedSince = S3Time.parseHttp(request.header("if-unmodified-since"));
    if (ifMatch == null && unmodifiedSince != null && modified.isAfter(unmodifiedSince)) {
      throw S3ErrorCode.PRECONDITION_FAILED.error();
    }
    Instant modifiedSince = S3Time.parseHttp(request.header("if-modified-since"));
    if ((ifNoneMatch != null && matches(ifNoneMatch, etag))
        || (ifNoneMatch == null && modifiedSince != null && !modified.isAfter(modifiedSince))) {
      out.headers().set("ETag", etag);
      out.headers().set("Last-Modified", S3Time.http(key.getModificationTimeMs()));
      out.sendHead(304, 0);
      return false;
    }
    return true;
  }

  /** Whether an If-Match / If-None-Match value ({@code *} or ETags, quoted or not) names {@code etag}. */
  static boolean matches(String condition, String etag) {
    for (String candidate : condition.split(",")) {
      String c = candidate.strip();
      if (c.equals("*") || c.equals(etag) || ("\"" + c + "\"").equals(etag)) {
        return true;
      }
    }
    return false;
  }
}
