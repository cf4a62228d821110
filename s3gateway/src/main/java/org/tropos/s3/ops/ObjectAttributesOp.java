package org.tropos.s3.ops;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.PartInfo;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.checksum.MultipartChecksum;
import org.tropos.s3.checksum.ObjectChecksum;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;

/**
 * GetObjectAttributes: of the attributes {@code x-amz-object-attributes} names, the ETag, the checksum, the size,
 * the storage class and the parts of an object a multipart upload made (paged by {@code x-amz-part-number-marker}
 * and {@code x-amz-max-parts}), each with its checksum.
 */
final class ObjectAttributesOp {
  private static final Set<String> ATTRIBUTES = Set.of("ETag", "Checksum", "ObjectParts", "StorageClass",
      "ObjectSize");
  private static final int MAX_PARTS = 1000;

  private final TroposClient om;
  private final BucketOps buckets;

  ObjectAttributesOp(TroposClient om, BucketOps buckets) {
    this.om = om;
    this.buckets = buckets;
  }

  void get(S3Request request, Caller caller, S3Response out) throws S3Error {
    List<String> wanted = wanted(request);
    int marker = header(request, "x-amz-part-number-marker", 0);
    int max = Math.min(header(request, "x-amz-max-parts", MAX_PARTS), MAX_PARTS);
    BucketInfo bucket = buckets.find(request);
    KeyInfo key = ObjectReads.lookup(om, buckets, bucket, request, caller, wanted.contains("ObjectParts")).getKey();
    Access.checkRead(bucket, key, caller);
    ServerSideEncryption.forRead(request, key);
    Xml xml = Xml.document("GetObjectAttributesResponse");
    if (wanted.contains("ETag")) {
      xml.element("ETag", ObjectMetadata.etag(key).replace("\"", ""));
    }
    if (wanted.contains("Checksum")) {
      ObjectChecksum.in(key.getMetadataMap()).ifPresent(c -> c.addTo(xml.open("Checksum")).close("Checksum"));
    }
    if (wanted.contains("ObjectParts") && key.getPartCount() > 0) {
      parts(xml, key, marker, max);
    }
    if (wanted.contains("StorageClass")) {
      xml.element("StorageClass", buckets.storageClasses().of(key));
    }
    if (wanted.contains("ObjectSize")) {
      xml.element("ObjectSize", key.getSize());
    }
    out.headers().set("Last-Modified", S3Time.http(key.getModificationTimeMs()));
    Versions.header(bucket, key, out);
    out.send(200, xml.close("GetObjectAttributesResponse").bytes(), "application/xml");
  }

  private static void parts(Xml xml, KeyInfo key, int marker, int max) {
    List<PartInfo> after = key.getPartsList().stream().filter(p -> p.getPartNumber() > marker).toList();
    List<PartInfo> page = after.subList(0, Math.min(max, after.size()));
    // S3 names TotalPartsCount "PartsCount" on the wire.
    xml.open("ObjectParts").element("PartsCount", key.getPartCount()).element("PartNumberMarker", marker);
    if (!page.isEmpty()) {
      xml.element("NextPartNumberMarker", page.get(page.size() - 1).getPartNumber());
    }
    xml.element("MaxParts", max).element("IsTruncated", page.size() < after.size());
    for (PartInfo part : page) {
      xml.open("Part").element("PartNumber", part.getPartNumber()).element("Size", part.getSize());
      MultipartChecksum.ofPartEntry(part.getChecksum()).ifPresent(c -> xml.element(c.algorithm().xmlElement(),
          c.value()));
      xml.close("Part");
    }
    xml.close("ObjectParts");
  }

  /** The attributes asked for; InvalidArgument for none or one S3 does not define. */
  private static List<String> wanted(S3Request request) throws S3Error {
    String header = request.header("x-amz-object-attributes");
    if (header == null || header.isBlank()) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("The x-amz-object-attributes header specifying the attributes to be"
          + " retrieved is either missing or empty");
    }
    List<String> wanted = Arrays.stream(header.split(",")).map(String::strip).toList();
    for (String attribute : wanted) {
      if (!ATTRIBUTES.contains(attribute)) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("Invalid attribute name specified: " + S3Error.quote(attribute));
      }
    }
    return wanted;
  }

  private static int header(S3Request request, String name, int fallback) throws S3Error {
    String value = request.header(name);
    if (value == null) {
      return fallback;
    }
    try {
      int number = Integer.parseInt(value.strip());
      if (number >= 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw S3ErrorCode.INVALID_ARGUMENT.error(name + " must be a number >= 0");
  }
}
