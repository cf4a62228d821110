package org.tropos.s3.ops;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketVersioning;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeyVersionsRequest;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * GetBucketVersioning, PutBucketVersioning (Enabled, Suspended) and ListObjectVersions: every version of the
 * bucket's keys, delete markers included, with prefix, delimiter and paging by key and version markers. A bucket
 * whose versioning was never enabled lists each object once, with version id {@code null}.
 */
final class VersioningOps {
  private static final Map<String, BucketVersioning> STATES = Map.of("Enabled", BucketVersioning.VERSIONING_ENABLED,
      "Suspended", BucketVersioning.VERSIONING_SUSPENDED);

  private final TroposClient om;
  private final BucketOps buckets;

  VersioningOps(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.OWNER);
    Xml xml = Xml.document("VersioningConfiguration");
    switch (bucket.getVersioning()) {
      case VERSIONING_ENABLED -> xml.element("Status", "Enabled");
      case VERSIONING_SUSPENDED -> xml.element("Status", "Suspended");
      default -> {
      }
    }
    out.send(200, xml.close("VersioningConfiguration").bytes(), "application/xml");
  }

  void put(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    buckets.require(request, caller, Access.Permission.OWNER);
    Element configuration = XmlInput.parse(request.body());
    String status = XmlInput.text(configuration, "Status");
    String mfaDelete = XmlInput.text(configuration, "MfaDelete");
    if (!configuration.getTagName().equals("VersioningConfiguration")) {
      throw S3ErrorCode.MALFORMED_XML.error();
    }
    if (mfaDelete != null && !mfaDelete.equals("Disabled")) {
      throw S3ErrorCode.NOT_IMPLEMENTED.error("MFA delete is not implemented");
    }
    BucketVersioning state = STATES.get(status);
    if (state == null) {
      throw S3ErrorCode.ILLEGAL_VERSIONING_CONFIGURATION.error("The versioning status must be Enabled or Suspended,"
          + " not " + S3Error.quote(String.valueOf(status)));
    }
    try {
      om.setBucketProperties(SetBucketPropertiesRequest.newBuilder().setVolume(buckets.volume())
          .setName(request.bucket()).setVersioning(state).build());
    } catch (OmException e) {
      throw e.result() == OmResult.NOT_SUPPORTED_FOR_LAYOUT ? S3ErrorCode.NOT_IMPLEMENTED.error(e.getMessage())
          : OmCalls.translate(e, request.bucket(), "");
    }
    out.send(200, new byte[0], null);
  }

  /** One page: versions ({@link KeyInfo}) and common prefixes (strings) in order; where the next starts, or null. */
  private record Page(List<Object> entries, Marker next) {
  }

  /** Where a listing resumes: after a key, or after one version of it. */
  private record Marker(String key, String versionId) {
  }

  void list(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.READ);
    String prefix = orEmpty(request.param("prefix"));
    String delimiter = orEmpty(request.param("delimiter"));
    String keyMarker = orEmpty(request.param("key-marker"));
    String versionIdMarker = orEmpty(request.param("version-id-marker"));
    if (keyMarker.isEmpty() && !versionIdMarker.isEmpty()) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("A version-id marker cannot be specified without a key marker.");
    }
    int max = ObjectListing.maxKeys(request);
    // A key marker that is a common prefix (a previous page's NextKeyMarker) resumes past everything under it.
    Marker from = !delimiter.isEmpty() && keyMarker.endsWith(delimiter) && keyMarker.length() > prefix.length()
        ? new Marker(keyMarker + ObjectListing.PAST_PREFIX, "") : new Marker(keyMarker, versionIdMarker);
    Page page = max == 0 ? new Page(List.of(), null) : page(bucket, prefix, delimiter, from, max);
    boolean url = "url".equals(request.param("encoding-type"));
    Xml xml = Xml.document("ListVersionsResult").element("Name", request.bucket())
        .element("Prefix", ObjectListing.encode(prefix, url)).element("KeyMarker", ObjectListing.encode(keyMarker, url))
        .element("VersionIdMarker", versionIdMarker);
    if (page.next() != null) {
      xml.element("NextKeyMarker", ObjectListing.encode(page.next().key(), url));
      if (!page.next().versionId().isEmpty()) {
        xml.element("NextVersionIdMarker", page.next().versionId());
      }
    }
    xml.element("MaxKeys", max);
    if (!delimiter.isEmpty()) {
      xml.element("Delimiter", ObjectListing.encode(delimiter, url));
    }
    xml.element("IsTruncated", page.next() != null);
    if (url) {
      xml.element("EncodingType", "url");
    }
    for (Object entry : page.entries()) {
      if (entry instanceof KeyInfo version) {
        version(xml, version, url, buckets.storageClasses());
      } else {
        xml.open("CommonPrefixes").element("Prefix", ObjectListing.encode((String) entry, url))
            .close("CommonPrefixes");
      }
    }
    out.send(200, xml.close("ListVersionsResult").bytes(), "application/xml");
  }

  private static void version(Xml xml, KeyInfo version, boolean url, StorageClasses classes) {
    String element = version.getDeleteMarker() ? "DeleteMarker" : "Version";
    xml.open(element).element("Key", ObjectListing.encode(version.getName(), url))
        .element("VersionId", version.getVersionId()).element("IsLatest", version.getLatest())
        .element("LastModified", S3Time.iso(version.getModificationTimeMs()));
    if (!version.getDeleteMarker()) {
      xml.element("ETag", ObjectMetadata.etag(version)).element("Size", version.getSize())
          .element("StorageClass", classes.of(version));
    }
    xml.open("Owner").element("ID", version.getOwner()).element("DisplayName", version.getOwner()).close("Owner")
        .close(element);
  }

  /**
   * Up to {@code max} entries from {@code from}: versions, and keys sharing a prefix up to the delimiter rolled
   * into one common prefix, after which the listing jumps past every key under it.
   */
  private Page page(BucketInfo bucket, String prefix, String delimiter, Marker from, int max) throws S3Error {
    List<Object> entries = new ArrayList<>();
    Marker cursor = from;
    Marker last = null;
    while (true) {
      Marker at = cursor;
      ListKeyVersionsResponse page;
      try {
        page = om.listKeyVersions(ListKeyVersionsRequest.newBuilder().setVolume(buckets.volume())
            .setBucket(bucket.getName()).setPrefix(prefix).setKeyMarker(at.key()).setVersionIdMarker(at.versionId())
            .setMaxResults(ObjectListing.MAX_KEYS).build());
      } catch (OmException e) {
        throw e.result() == OmResult.INVALID_REQUEST ? S3ErrorCode.INVALID_ARGUMENT.error("Invalid version id"
            + " specified: " + S3Error.quote(at.versionId())) : OmCalls.translate(e, bucket.getName(), "");
      }
      boolean jumped = false;
      for (KeyInfo version : page.getVersionsList()) {
        if (version.getDirectory()) {
          cursor = new Marker(version.getName(), "");
          continue;
        }
        if (entries.size() == max) {
          return new Page(entries, last);
        }
        String name = version.getName();
        int cut = delimiter.isEmpty() ? -1 : name.indexOf(delimiter, prefix.length());
        if (cut >= 0) {
          String common = name.substring(0, cut + delimiter.length());
          entries.add(common);
          last = new Marker(common, "");
          cursor = new Marker(common + ObjectListing.PAST_PREFIX, "");
          jumped = true;
          break;
        }
        entries.add(version);
        last = new Marker(name, version.getVersionId());
        cursor = last;
      }
      if (!jumped && !page.getTruncated()) {
        return new Page(entries, null);
      }
    }
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
