package org.tropos.s3.ops;

import static org.tropos.s3.auth.RequestAuthenticator.UNSIGNED_PAYLOAD;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tropos.client.TroposClient;
import org.tropos.client.internal.KeyInputStream;
import org.tropos.client.internal.KeyOutputStream;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.auth.AwsChunkedInputStream;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.auth.SigV4;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * PutObject, GetObject (ranges, conditions), HeadObject, DeleteObject. Bodies stream straight between the
 * client and the block data path; a PUT is committed only after its length, SHA-256 (when signed) and
 * Content-MD5 (when sent) check out, so a bad upload leaves the previous object in place.
 */
final class ObjectOps {
  static final String ETAG = "ETag";
  static final String CONTENT_TYPE = "Content-Type";
  private static final String USER_META = "x-amz-meta-";
  private static final String DEFAULT_TYPE = "binary/octet-stream";
  /** Headers S3 stores with an object and returns with it, besides Content-Type. */
  static final List<String> STORED_HEADERS = List.of("Content-Encoding", "Content-Disposition", "Content-Language",
      "Cache-Control", "Expires");
  private static final int BUFFER = 1 << 20;

  private final TroposClient om;
  private final BucketOps buckets;

  ObjectOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.require(request.bucket(), caller);
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().putAllMetadata(userMetadata(request))
        .putAllMetadata(TaggingOps.asMetadata(TaggingOps.fromHeader(request.header("x-amz-tagging"))));
    out.headers().set("ETag", upload(request, caller, bucket, open));
    out.send(200, new byte[0], null);
  }

  /**
   * Streams the body into a new key (or part) opened with {@code open}'s settings, and commits it only after
   * the length, the SHA-256 (when signed), the chunk signatures (aws-chunked) and the Content-MD5 (when sent)
   * check out; returns its ETag (the body's MD5, quoted).
   */
  String upload(S3Request request, Caller caller, BucketInfo bucket,
      OpenKeyRequest.Builder open) throws S3Error, IOException {
    String payloadHash = caller.payloadHash();
    boolean chunked = payloadHash.startsWith("STREAMING-");
    long length = length(request, chunked ? "x-amz-decoded-content-length" : "content-length");
    InputStream body = chunked ? new AwsChunkedInputStream(request.body(), caller, payloadHash,
        request.header("x-amz-trailer")) : request.body();
    KeyOutputStream key = OmCalls.call(request.bucket(), request.key(), () -> om.createKey(open
        .setVolume(buckets.volume()).setBucket(bucket.getName()).setKey(request.key()).setSize(length)
        .setFactor(bucket.getFactor()).setCreateParents(true).setOwner(caller.accessId()).build()));
    boolean committed = false;
    try {
      Digests digests = copy(body, key, length);
      if (chunked && body.read() >= 0) {
        throw S3ErrorCode.INVALID_REQUEST.error("The aws-chunked body holds more than x-amz-decoded-content-length"
            + " bytes");
      }
      if (!chunked && !payloadHash.equals(UNSIGNED_PAYLOAD)
          && !payloadHash.equals(digests.sha256())) {
        throw S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH.error("The provided 'x-amz-content-sha256' header does not"
            + " match what was computed.");
      }
      String contentMd5 = request.header("content-md5");
      if (contentMd5 != null && !contentMd5.strip().equals(Base64.getEncoder().encodeToString(digests.md5))) {
        throw S3ErrorCode.BAD_DIGEST.error("The Content-MD5 you specified did not match what we received.");
      }
      String etag = "\"" + HexFormat.of().formatHex(digests.md5) + "\"";
      key.setCommitMetadata(Map.of(ETAG, etag));
      key.close();
      committed = true;
      return etag;
    } catch (IOException e) {
      if (e.getCause() instanceof OmException om) {
        throw OmCalls.translate(om, request.bucket(), request.key());
      }
      throw e;
    } finally {
      if (!committed) {
        key.abort();
      }
    }
  }

  private static long length(S3Request request, String header) throws S3Error {
    String value = request.header(header);
    if (value == null) {
      throw S3ErrorCode.MISSING_CONTENT_LENGTH.error("You must provide the " + header + " HTTP header.");
    }
    try {
      long length = Long.parseLong(value.strip());
      if (length < 0) {
        throw S3ErrorCode.INVALID_ARGUMENT.error(header + " must be >= 0");
      }
      return length;
    } catch (NumberFormatException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error(header + " must be a number");
    }
  }

  /** Content-Type, the other standard headers S3 keeps ({@link #STORED_HEADERS}) and x-amz-meta-*. */
  static Map<String, String> userMetadata(S3Request request) {
    Map<String, String> metadata = new HashMap<>();
    String type = request.header("content-type");
    metadata.put(CONTENT_TYPE, type == null ? DEFAULT_TYPE : type);
    for (String name : STORED_HEADERS) {
      String value = request.header(name);
      if (name.equals("Content-Encoding") && value != null) {
        // aws-chunked describes the upload, not the object.
        value = String.join(",", Arrays.stream(value.split(",")).map(String::strip)
            .filter(v -> !v.isEmpty() && !v.equalsIgnoreCase("aws-chunked")).toList());
      }
      if (value != null && !value.isEmpty()) {
        metadata.put(name, value);
      }
    }
    for (String name : request.headers().names()) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.startsWith(USER_META)) {
        metadata.put(lower, request.header(name));
      }
    }
    return metadata;
  }

  private record Digests(byte[] md5, String sha256) {
  }

  private static Digests copy(InputStream body, KeyOutputStream key, long length) throws S3Error, IOException {
    MessageDigest md5 = md5();
    MessageDigest sha256 = SigV4.sha256();
    byte[] buffer = new byte[BUFFER];
    long left = length;
    while (left > 0) {
      int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
      if (n < 0) {
        throw S3ErrorCode.INCOMPLETE_BODY.error("You did not provide the number of bytes specified by the"
            + " Content-Length HTTP header.");
      }
      md5.update(buffer, 0, n);
      sha256.update(buffer, 0, n);
      key.write(buffer, 0, n);
      left -= n;
    }
    return new Digests(md5.digest(), HexFormat.of().formatHex(sha256.digest()));
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request.bucket(), caller);
    try (KeyInputStream in = read(request)) {
      KeyInfo key = in.key();
      if (!conditionsHold(request, key, out)) {
        return;
      }
      describe(key, out);
      ByteRange range = ByteRange.parse(request.header("range"), key.getSize());
      if (range == null) {
        out.stream(200, key.getSize(), in);
        return;
      }
      out.headers().set("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + key.getSize());
      in.seek(range.first());
      out.stream(206, range.length(), in);
    }
  }

  private KeyInputStream read(S3Request request) throws S3Error {
    return OmCalls.call(request.bucket(), request.key(), () -> om.readKey(buckets.volume(), request.bucket(),
        request.key()));
  }

  void head(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request.bucket(), caller);
    KeyInfo key;
    key = OmCalls.call(request.bucket(), request.key(), () -> om.getKey(buckets.volume(), request.bucket(),
        request.key()));
    if (key.getDirectory()) {
      throw S3ErrorCode.NO_SUCH_KEY.error("The specified key does not exist: " + S3Error.quote(request.key()));
    }
    if (conditionsHold(request, key, out)) {
      describe(key, out);
      out.sendHead(200, key.getSize());
    }
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request.bucket(), caller);
    try {
      om.deleteKey(buckets.volume(), request.bucket(), request.key(), false);
    } catch (OmException e) {
      if (e.result() != OmResult.KEY_NOT_FOUND && e.result() != OmResult.DIRECTORY_NOT_FOUND) {
        throw OmCalls.translate(e, request.bucket(), request.key());
      }
    }
    out.send(204, new byte[0], null);
  }

  /** The object's ETag: the MD5 recorded at upload, or one derived from its ids for keys written otherwise. */
  static String etag(KeyInfo key) {
    String etag = key.getMetadataMap().get(ETAG);
    return etag != null ? etag : "\"" + Long.toHexString(key.getObjectId()) + Long.toHexString(key.getUpdateId())
        + "\"";
  }

  private static void describe(KeyInfo key, S3Response out) {
    out.headers().set("ETag", etag(key));
    out.headers().set("Last-Modified", S3Time.http(key.getModificationTimeMs()));
    out.headers().set("Content-Type", key.getMetadataMap().getOrDefault(CONTENT_TYPE, DEFAULT_TYPE));
    for (String name : STORED_HEADERS) {
      String value = key.getMetadataMap().get(name);
      if (value != null) {
        out.headers().set(name, value);
      }
    }
    out.headers().set("Accept-Ranges", "bytes");
    int tags = TaggingOps.tagsOf(key.getMetadataMap()).size();
    if (tags > 0) {
      out.headers().set("x-amz-tagging-count", tags);
    }
    key.getMetadataMap().forEach((name, value) -> {
      if (name.startsWith(USER_META)) {
        out.headers().set(name, value);
      }
    });
  }

  /** RFC 7232 conditions as S3 applies them; false once a 304 or 412 was sent. */
  private static boolean conditionsHold(S3Request request, KeyInfo key, S3Response out) throws S3Error {
    String etag = etag(key);
    Instant modified = Instant.ofEpochMilli(key.getModificationTimeMs() / 1000 * 1000);
    String ifMatch = request.header("if-match");
    String ifNoneMatch = request.header("if-none-match");
    if (ifMatch != null && !matches(ifMatch, etag)) {
      throw S3ErrorCode.PRECONDITION_FAILED.error("At least one of the pre-conditions you specified did not hold");
    }
    Instant unmodifiedSince = S3Time.parseHttp(request.header("if-unmodified-since"));
    if (ifMatch == null && unmodifiedSince != null && modified.isAfter(unmodifiedSince)) {
      throw S3ErrorCode.PRECONDITION_FAILED.error("At least one of the pre-conditions you specified did not hold");
    }
    Instant modifiedSince = S3Time.parseHttp(request.header("if-modified-since"));
    if ((ifNoneMatch != null && matches(ifNoneMatch, etag))
        || (ifNoneMatch == null && modifiedSince != null && !modified.isAfter(modifiedSince))) {
      out.headers().set("ETag", etag);
      out.sendHead(304, 0);
      return false;
    }
    return true;
  }

  private static boolean matches(String condition, String etag) {
    for (String candidate : condition.split(",")) {
      String c = candidate.strip();
      if (c.equals("*") || c.equals(etag) || ("\"" + c + "\"").equals(etag)) {
        return true;
      }
    }
    return false;
  }
}
