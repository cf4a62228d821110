package org.tropos.s3.ops;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.tropos.proto.om.KeyInfo;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * What S3 keeps with an object besides its bytes, as the OM stores it in the key's metadata: Content-Type, the
 * standard headers S3 returns ({@link #STORED_HEADERS}), user metadata ({@code x-amz-meta-*}), the ETag and tags.
 */
final class ObjectMetadata {
  static final String ETAG = "ETag";
  /** The commit metadata entry in which the OM records a multipart part's checksum. */
  static final String PART_CHECKSUM = "PartChecksum";
  static final String CONTENT_TYPE = "Content-Type";
  static final String USER_META = "x-amz-meta-";
  static final String DEFAULT_TYPE = "binary/octet-stream";
  /** Headers S3 stores with an object and returns with it, besides Content-Type. */
  static final List<String> STORED_HEADERS = List.of("Content-Encoding", "Content-Disposition", "Content-Language",
      "Cache-Control", "Expires");
  /** S3's limit on user metadata: the UTF-8 bytes of every name (after x-amz-meta-) and value. */
  static final int MAX_USER_METADATA_BYTES = 2048;

  private ObjectMetadata() {
  }

  /** Content-Type, the other standard headers S3 keeps and x-amz-meta-*; MetadataTooLarge past S3's 2 KB. */
  static Map<String, String> of(S3Request request) throws S3Error {
    return of(request::header, request.headers().names());
  }

  /**
   * The same, from values found by name (case-insensitively) with {@code value} among {@code names}: a request's
   * headers, or the fields of a browser form.
   */
  static Map<String, String> of(UnaryOperator<String> value, Iterable<String> names) throws S3Error {
    Map<String, String> metadata = new LinkedHashMap<>();
    String type = value.apply("content-type");
    metadata.put(CONTENT_TYPE, type == null ? DEFAULT_TYPE : type);
    for (String name : STORED_HEADERS) {
      String stored = value.apply(name);
      if (name.equals("Content-Encoding") && stored != null) {
        // aws-chunked describes the upload, not the object.
        stored = String.join(", ", Arrays.stream(stored.split(",")).map(String::strip)
            .filter(v -> !v.isEmpty() && !v.equalsIgnoreCase("aws-chunked")).toList());
      }
      if (stored != null && !stored.isEmpty()) {
        metadata.put(name, stored);
      }
    }
    int userBytes = 0;
    for (String name : names) {
      String lower = name.toLowerCase(Locale.ROOT);
      if (lower.startsWith(USER_META)) {
        String user = value.apply(name);
        metadata.put(lower, user);
        userBytes += utf8Length(lower.substring(USER_META.length())) + utf8Length(user);
      }
    }
    if (userBytes > MAX_USER_METADATA_BYTES) {
      throw S3ErrorCode.METADATA_TOO_LARGE.error("Your metadata headers exceed the maximum allowed metadata size: "
          + userBytes + " bytes of at most " + MAX_USER_METADATA_BYTES);
    }
    return metadata;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** The ETag of an empty object: a directory's, as a folder marker's. */
  static final String EMPTY_ETAG = "\"d41d8cd98f00b204e9800998ecf8427e\"";

  /**
   * The object's ETag: the MD5 recorded at upload, an empty object's for a directory, or one derived from its ids
   * for keys written otherwise.
   */
  static String etag(KeyInfo key) {
    if (key.getDirectory()) {
      return EMPTY_ETAG;
    }
    String etag = key.getMetadataMap().get(ETAG);
    return etag != null ? etag : "\"" + Long.toHexString(key.getObjectId()) + Long.toHexString(key.getUpdateId())
        + "\"";
  }

  /** The headers describing an object in a GET or HEAD response. */
  static void describe(KeyInfo key, S3Response out) {
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
}
