package org.tropos.s3.ops;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tropos.client.TroposClient;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/** Object tagging: GetObjectTagging, PutObjectTagging, DeleteObjectTagging, and tags given with a PUT or copy. */
final class TaggingOps {
  /** Where the OM keeps tags in a key's metadata. */
  static final String PREFIX = PolicyRequest.TAG_METADATA;
  private static final int MAX_TAGS = 10;
  private static final int MAX_BUCKET_TAGS = 50;
  private static final int MAX_KEY = 128;
  private static final int MAX_VALUE = 256;

  private final TroposClient om;
  private final BucketOps buckets;

  TaggingOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.find(request);
    KeyInfo key = ObjectReads.lookup(om, buckets, bucket, request, caller, false).getKey();
    Access.checkRead(bucket, key, caller);
    Versions.header(bucket, key, out);
    out.send(200, document(tagsOf(key.getMetadataMap())), "application/xml");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.find(request);
    ObjectReads.changeable(om, buckets, bucket, request, caller);
    set(request, caller, bucket, check(document(request), MAX_TAGS), out, 200);
  }

  /** A Tagging document of {@code tags}, by key (as S3 servers list them). */
  private static byte[] document(Map<String, String> tags) {
    Xml xml = Xml.document("Tagging").open("TagSet");
    new TreeMap<>(tags).forEach((name, value) -> xml.open("Tag").element("Key", name).element("Value", value)
        .close("Tag"));
    return xml.close("TagSet").close("Tagging").bytes();
  }

  /** The tags of a Tagging document, in its order. */
  private static Map<String, String> document(S3Request request) throws S3Error, IOException {
    return document(request.body());
  }

  /** The tags of a Tagging document sent as a form field (POST object), checked. */
  static Map<String, String> fromDocument(InputStream document) throws S3Error, IOException {
    return check(document(document), MAX_TAGS);
  }

  private static Map<String, String> document(InputStream body) throws S3Error, IOException {
    Element root = XmlInput.parse(body);
    if (!root.getTagName().equals("Tagging")) {
      throw S3ErrorCode.MALFORMED_XML.error();
    }
    Map<String, String> tags = new LinkedHashMap<>();
    List<Element> sets = XmlInput.children(root, "TagSet");
    for (Element tag : sets.isEmpty() ? List.<Element>of() : XmlInput.children(sets.get(0), "Tag")) {
      String key = String.valueOf(XmlInput.exactText(tag, "Key"));
      if (tags.put(key, String.valueOf(XmlInput.exactText(tag, "Value"))) != null) {
        throw S3ErrorCode.INVALID_TAG.error("Cannot provide multiple Tags with the same key");
      }
    }
    return tags;
  }

  /** GetBucketTagging: NoSuchTagSet for a bucket with no tags. */
  void getBucket(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    if (bucket.getTagsCount() == 0) {
      throw S3ErrorCode.NO_SUCH_TAG_SET.error();
    }
    out.send(200, document(bucket.getTagsMap()), "application/xml");
  }

  void putBucket(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    setBucket(request, check(document(request), MAX_BUCKET_TAGS));
    out.send(204, new byte[0], null);
  }

  void deleteBucket(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.OWNER);
    setBucket(request, Map.of());
    out.send(204, new byte[0], null);
  }

  private void setBucket(S3Request request, Map<String, String> tags) throws S3Error {
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume(buckets.volume()).setName(request.bucket()).setSetTags(true).putAllTags(tags).build()));
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    set(request, caller, buckets.find(request), Map.of(), out, 204);
  }

  /** Sets the tags of the version the request names, checked (again, if it changed) to be the caller's to set. */
  private void set(S3Request request, Caller caller, BucketInfo bucket, Map<String, String> tags, S3Response out,
      int status) throws S3Error {
    KeyInfo tagged = OmCalls.againIfChanged(() -> {
      KeyInfo key = ObjectReads.changeable(om, buckets, bucket, request, caller);
      return OmCalls.call(request.bucket(), request.key(), () -> om.setKeyTags(SetKeyTagsRequest.newBuilder()
          .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
          .setVersionId(key.getVersionId()).setExpectedObjectId(key.getObjectId()).putAllTags(tags).build()));
    });
    Versions.header(bucket, tagged, out);
    out.send(status, new byte[0], null);
  }

  /** The tags of an {@code x-amz-tagging} header ({@code k1=v1&k2=v2}, URL-encoded), checked. */
  static Map<String, String> fromHeader(String header) throws S3Error {
    Map<String, String> tags = new LinkedHashMap<>();
    if (header == null || header.isBlank()) {
      return tags;
    }
    new QueryStringDecoder("?" + header.strip(), StandardCharsets.UTF_8).parameters().forEach((name, values) ->
        tags.put(name, values.isEmpty() ? "" : values.get(0)));
    return check(tags, MAX_TAGS);
  }

  /** The tags among a key's metadata. */
  static Map<String, String> tagsOf(Map<String, String> metadata) {
    Map<String, String> tags = new LinkedHashMap<>();
    metadata.forEach((name, value) -> {
      if (name.startsWith(PREFIX)) {
        tags.put(name.substring(PREFIX.length()), value);
      }
    });
    return tags;
  }

  /** The tags as metadata entries. */
  static Map<String, String> asMetadata(Map<String, String> tags) {
    Map<String, String> metadata = new LinkedHashMap<>();
    tags.forEach((name, value) -> metadata.put(PREFIX + name, value));
    return metadata;
  }

  private static Map<String, String> check(Map<String, String> tags, int max) throws S3Error {
    if (tags.size() > max) {
      throw S3ErrorCode.BAD_REQUEST.error("Tags cannot be more than " + max);
    }
    for (Map.Entry<String, String> tag : tags.entrySet()) {
      if (tag.getKey().isEmpty() || tag.getKey().length() > MAX_KEY || tag.getValue().length() > MAX_VALUE) {
        throw S3ErrorCode.INVALID_TAG.error("A tag key has 1 to " + MAX_KEY + " characters and a value at most "
            + MAX_VALUE);
      }
    }
    return tags;
  }
}
