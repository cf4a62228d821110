package org.tropos.s3.ops;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;

/**
 * CopyObject inside the cluster: the OM gives the copy the source's blocks (reference counted), so no byte moves
 * and an S3A rename (copy + delete) costs the same for 1 KB and 1 GB.
 */
final class CopyOps {
  private final TroposClient om;
  private final BucketOps buckets;

  CopyOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  /** The bucket and key of an x-amz-copy-source header ({@code [/]bucket/key[?versionId=...]}, URL-encoded). */
  record Source(String bucket, String key) {
    static Source parse(String header) throws S3Error {
      String value = header.strip();
      int query = value.indexOf('?');
      if (query >= 0) {
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
      return new Source(value.substring(0, slash), value.substring(slash + 1));
    }
  }

  /**
   * The copy's metadata when the request replaces the metadata or the tags: the new or the source's user
   * metadata, the new or the source's tags, and always the source's ETag (the content is the same).
   */
  private static Map<String, String> metadataOfCopy(S3Request request, KeyInfo source, boolean replace,
      boolean replaceTags) throws S3Error {
    Map<String, String> metadata = new HashMap<>();
    if (replace) {
      metadata.putAll(ObjectOps.userMetadata(request));
    } else {
      source.getMetadataMap().forEach((name, value) -> {
        if (!name.startsWith(TaggingOps.PREFIX)) {
          metadata.put(name, value);
        }
      });
    }
    metadata.putAll(TaggingOps.asMetadata(replaceTags ? TaggingOps.fromHeader(request.header("x-amz-tagging"))
        : TaggingOps.tagsOf(source.getMetadataMap())));
    metadata.put(ObjectOps.ETAG, ObjectOps.etag(source));
    return metadata;
  }

  /** x-amz-copy-source-if-match, -if-none-match, -if-modified-since, -if-unmodified-since. */
  private static void checkSourceConditions(S3Request request, KeyInfo source) throws S3Error {
    String etag = ObjectOps.etag(source).replace("\"", "");
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
      throw S3ErrorCode.PRECONDITION_FAILED.error("At least one of the pre-conditions you specified did not hold");
    }
  }

  void copy(S3Request request, Caller caller, S3Response out) throws S3Error {
    Source source = Source.parse(request.header("x-amz-copy-source"));
    buckets.require(request.bucket(), caller);
    if (!source.bucket().equals(request.bucket())) {
      buckets.require(source.bucket(), caller);
    }
    boolean replace = "REPLACE".equalsIgnoreCase(request.header("x-amz-metadata-directive"));
    boolean replaceTags = "REPLACE".equalsIgnoreCase(request.header("x-amz-tagging-directive"));
    if (!replace && !replaceTags && source.bucket().equals(request.bucket()) && source.key().equals(request.key())) {
      throw S3ErrorCode.INVALID_REQUEST.error("This copy request is illegal because it is trying to copy an object"
          + " to itself without changing the object's metadata, storage class, website redirect location or"
          + " encryption attributes.");
    }
    CopyKeyRequest.Builder copy = CopyKeyRequest.newBuilder().setVolume(buckets.volume()).setBucket(source.bucket())
        .setKey(source.key()).setToVolume(buckets.volume()).setToBucket(request.bucket()).setToKey(request.key())
        .setOwner(caller.accessId()).setReplaceMetadata(replace || replaceTags);
    KeyInfo copied;
    try {
      if (request.headers().names().stream().anyMatch(n -> n.toLowerCase(Locale.ROOT)
          .startsWith("x-amz-copy-source-if-"))) {
        checkSourceConditions(request, om.getKey(buckets.volume(), source.bucket(), source.key()));
      }
      if (replace || replaceTags) {
        copy.putAllMetadata(metadataOfCopy(request, om.getKey(buckets.volume(), source.bucket(), source.key()),
            replace, replaceTags));
      }
      copied = om.copyKey(copy.build());
    } catch (OmException e) {
      throw OmCalls.translate(e, source.bucket(), source.key());
    }
    out.send(200, Xml.document("CopyObjectResult").element("LastModified",
        S3Time.iso(copied.getModificationTimeMs())).element("ETag", ObjectOps.etag(copied))
        .close("CopyObjectResult").bytes(), "application/xml");
  }
}
