package org.tropos.s3.ops;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.auth.SigV4;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;

/**
 * ListObjectsV2 and V1: pages of the OM's key listing (byte order), with keys that share a prefix up to the
 * delimiter rolled into one common prefix. After a common prefix the listing jumps past every key under it,
 * so a directory of a million files costs one OM call, not a million.
 */
final class ObjectListing {
  /** Sorts after anything a key can continue a prefix with (U+10FFFF). */
  static final String PAST_PREFIX = "\uDBFF\uDFFF";
  static final int MAX_KEYS = 1000;

  private final TroposClient om;
  private final BucketOps buckets;

  ObjectListing(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  /** One page: objects and common prefixes in order, and where the next page starts (null: no more). */
  private record Page(List<KeyInfo> objects, List<String> prefixes, String lastReturned, String resumeAfter) {
  }

  private Page page(String bucket, String prefix, String delimiter, String after, int max) throws S3Error {
    List<KeyInfo> objects = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String cursor = after;
    String lastReturned = null;
    try {
      while (true) {
        ListKeysResponse page = om.listKeys(buckets.volume(), bucket, prefix, cursor, MAX_KEYS);
        boolean jumped = false;
        for (KeyInfo key : page.getKeysList()) {
          // An empty directory of an FSO bucket is listed as its folder marker, "name/".
          String name = key.getName();
          int cut = delimiter.isEmpty() ? -1 : name.indexOf(delimiter, prefix.length());
          if (objects.size() + prefixes.size() == max) {
            return new Page(objects, prefixes, lastReturned, cursor);
          }
          if (cut >= 0) {
            String common = name.substring(0, cut + delimiter.length());
            prefixes.add(common);
            lastReturned = common;
            cursor = common + PAST_PREFIX;
            jumped = true;
            break;
          }
          objects.add(key);
          lastReturned = name;
          cursor = name;
        }
        if (!jumped && !page.getTruncated()) {
          return new Page(objects, prefixes, lastReturned, null);
        }
      }
    } catch (OmException e) {
      throw OmCalls.translate(e, bucket, "");
    }
  }

  /** ListObjects: version 2 with {@code list-type=2}, else version 1. */
  void list(S3Request request, Caller caller, S3Response out) throws S3Error {
    String type = request.param("list-type");
    if (type == null) {
      listV1(request, caller, out);
    } else if (type.equals("2")) {
      listV2(request, caller, out);
    } else {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Invalid list type " + S3Error.quote(type) + ": 2 or none");
    }
  }

  private void listV2(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.READ);
    String prefix = orEmpty(request.param("prefix"));
    String delimiter = orEmpty(request.param("delimiter"));
    String token = request.param("continuation-token");
    String startAfter = request.param("start-after");
    int max = maxKeys(request);
    String after = token != null ? decodeToken(token) : orEmpty(startAfter);
    Page page = max == 0 ? new Page(List.of(), List.of(), null, null) : page(request.bucket(), prefix, delimiter,
        after, max);
    boolean url = "url".equals(request.param("encoding-type"));
    Xml xml = Xml.document("ListBucketResult").element("Name", request.bucket())
        .element("Prefix", encode(prefix, url)).element("KeyCount", page.objects().size() + page.prefixes().size())
        .element("MaxKeys", max);
    if (!delimiter.isEmpty()) {
      xml.element("Delimiter", encode(delimiter, url));
    }
    xml.element("IsTruncated", page.resumeAfter() != null);
    if (token != null) {
      xml.element("ContinuationToken", token);
    }
    if (page.resumeAfter() != null) {
      xml.element("NextContinuationToken", encodeToken(page.resumeAfter()));
    }
    if (startAfter != null) {
      xml.element("StartAfter", encode(startAfter, url));
    }
    if (url) {
      xml.element("EncodingType", "url");
    }
    entries(xml, page, url, "true".equals(request.param("fetch-owner")), buckets.storageClasses());
    out.send(200, xml.close("ListBucketResult").bytes(), "application/xml");
  }

  private void listV1(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.READ);
    String prefix = orEmpty(request.param("prefix"));
    String delimiter = orEmpty(request.param("delimiter"));
    String marker = orEmpty(request.param("marker"));
    int max = maxKeys(request);
    // A marker that is a common prefix (a previous page's NextMarker) resumes past everything under it.
    String after = !delimiter.isEmpty() && marker.endsWith(delimiter) ? marker + PAST_PREFIX : marker;
    Page page = max == 0 ? new Page(List.of(), List.of(), null, null) : page(request.bucket(), prefix, delimiter,
        after, max);
    boolean url = "url".equals(request.param("encoding-type"));
    Xml xml = Xml.document("ListBucketResult").element("Name", request.bucket())
        .element("Prefix", encode(prefix, url)).element("Marker", encode(marker, url)).element("MaxKeys", max);
    if (!delimiter.isEmpty()) {
      xml.element("Delimiter", encode(delimiter, url));
    }
    xml.element("IsTruncated", page.resumeAfter() != null);
    if (page.resumeAfter() != null && !delimiter.isEmpty()) {
      xml.element("NextMarker", encode(page.lastReturned(), url));
    }
    if (url) {
      xml.element("EncodingType", "url");
    }
    entries(xml, page, url, true, buckets.storageClasses());
    out.send(200, xml.close("ListBucketResult").bytes(), "application/xml");
  }

  private static void entries(Xml xml, Page page, boolean url, boolean owner, StorageClasses classes) {
    for (KeyInfo key : page.objects()) {
      xml.open("Contents").element("Key", encode(key.getName(), url))
          .element("LastModified", S3Time.iso(key.getModificationTimeMs())).element("ETag", ObjectMetadata.etag(key))
          .element("Size", key.getSize()).element("StorageClass", classes.of(key));
      if (owner) {
        xml.open("Owner").element("ID", key.getOwner()).element("DisplayName", key.getOwner()).close("Owner");
      }
      xml.close("Contents");
    }
    for (String prefix : page.prefixes()) {
      xml.open("CommonPrefixes").element("Prefix", encode(prefix, url)).close("CommonPrefixes");
    }
  }

  static int maxKeys(S3Request request) throws S3Error {
    String value = request.param("max-keys");
    if (value == null) {
      return MAX_KEYS;
    }
    try {
      int max = Integer.parseInt(value);
      if (max < 0) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("max-keys must be >= 0");
      }
      return Math.min(max, MAX_KEYS);
    } catch (NumberFormatException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("max-keys must be a number");
    }
  }

  static String encode(String s, boolean url) {
    return url ? SigV4.uriEncode(s).replace("%2F", "/") : s;
  }

  private static String encodeToken(String after) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(after.getBytes(StandardCharsets.UTF_8));
  }

  private static String decodeToken(String token) throws S3Error {
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("The continuation token provided is incorrect");
    }
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
