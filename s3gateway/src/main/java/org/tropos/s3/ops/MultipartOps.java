package org.tropos.s3.ops;

import java.io.IOException;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.ListPartsResponse;
import org.tropos.proto.om.MultipartUploadInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;
import org.tropos.s3.http.XmlInput;
import org.w3c.dom.Element;

/**
 * CreateMultipartUpload, UploadPart, CompleteMultipartUpload, AbortMultipartUpload, ListParts,
 * ListMultipartUploads. Parts stream into blocks like objects; Complete joins their block lists in the OM.
 */
final class MultipartOps {
  /** S3's smallest part but the last. */
  static final long MIN_PART_SIZE = 5L << 20;
  private static final int MAX_LISTED = 1000;

  private final TroposClient om;
  private final BucketOps buckets;
  private final ObjectWrites objects;

  MultipartOps(TroposClient om, BucketOps buckets, ObjectWrites objects) {
    this.om = om;
    this.buckets = buckets;
    this.objects = objects;
  }

  /** CreateMultipartUpload: the object's metadata, tags ({@code x-amz-tagging}) and ACL, kept until Complete. */
  void initiate(S3Request request, Caller caller, S3Response out) throws S3Error {
    ObjectWrites.checkKey(request.key());
    ObjectWrites.checkHeaders(request);
    buckets.require(request, caller, Access.Permission.WRITE);
    InitiateMultipartUploadRequest initiate = InitiateMultipartUploadRequest.newBuilder().setVolume(buckets.volume())
        .setBucket(request.bucket()).setKey(request.key()).putAllMetadata(ObjectMetadata.of(request))
        .putAllMetadata(TaggingOps.asMetadata(TaggingOps.fromHeader(request.header("x-amz-tagging"))))
        .setOwner(caller.accessId()).setAcl(AclOps.fromHeaders(request)).build();
    String uploadId = OmCalls.call(request.bucket(), request.key(), () -> om.initiateMultipartUpload(initiate));
    out.send(200, Xml.document("InitiateMultipartUploadResult").element("Bucket", request.bucket())
        .element("Key", request.key()).element("UploadId", uploadId).close("InitiateMultipartUploadResult").bytes(),
        "application/xml");
  }

  void uploadPart(S3Request request, Caller caller, S3Response out)
      throws S3Error, IOException {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.WRITE);
    int number;
    try {
      number = Integer.parseInt(request.param("partNumber"));
    } catch (NumberFormatException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("Part number must be an integer between 1 and 10000, inclusive");
    }
    if (request.header("x-amz-copy-source") != null) {
      copyPart(request, caller, bucket, number, out);
      return;
    }
    KeyInfo part = objects.upload(request, caller, buckets.writeTarget(request, caller, bucket),
        OpenKeyRequest.newBuilder().setUploadId(request.param("uploadId")).setPartNumber(number));
    out.headers().set("ETag", ObjectMetadata.etag(part));
    out.send(200, new byte[0], null);
  }

  /** UploadPartCopy: the part references a byte range of the source's blocks; no byte moves. */
  private void copyPart(S3Request request, Caller caller, BucketInfo bucket, int number, S3Response out)
      throws S3Error {
    CopyOps.Source source = CopyOps.Source.parse(request.header("x-amz-copy-source"));
    long first = 0;
    long last = -1;
    String range = request.header("x-amz-copy-source-range");
    if (range != null) {
      String spec = range.strip();
      int dash = spec.indexOf('-');
      try {
        if (!spec.startsWith("bytes=") || dash < 0) {
          throw new NumberFormatException(spec);
        }
        first = Long.parseLong(spec.substring("bytes=".length(), dash).strip());
        last = Long.parseLong(spec.substring(dash + 1).strip());
      } catch (NumberFormatException e) {
        throw S3ErrorCode.INVALID_ARGUMENT.error("The x-amz-copy-source-range value must be of the form"
            + " bytes=first-last");
      }
    }
    CopyPartRequest.Builder copy = CopyPartRequest.newBuilder().setSourceVolume(buckets.volume())
        .setSourceBucket(source.bucket()).setSourceKey(source.key()).setFirstByte(first).setLastByte(last)
        .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
        .setUploadId(request.param("uploadId")).setPartNumber(number);
    PartInfo part = OmCalls.againIfChanged(() -> {
      KeyInfo from = source.read(om, buckets, request, caller);
      try {
        return om.copyPart(copy.setSourceVersionId(from.getVersionId()).setExpectedObjectId(from.getObjectId())
            .build());
      } catch (OmException e) {
        throw e.result() == OmResult.INVALID_REQUEST ? S3ErrorCode.INVALID_RANGE.error(e.getMessage())
            : OmCalls.translate(e, source.bucket(), source.key());
      }
    });
    out.send(200, Xml.document("CopyPartResult").element("LastModified", S3Time.iso(part.getModificationTimeMs()))
        .element("ETag", part.getEtag()).close("CopyPartResult").bytes(), "application/xml");
  }

  /**
   * CompleteMultipartUpload, with If-Match / If-None-Match on the key it replaces checked when it commits.
   * Completing a completed upload again with the same parts answers the same object, as S3 does.
   */
  void complete(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.WRITE);
    OpenKeyRequest.Builder conditions = OpenKeyRequest.newBuilder();
    ObjectWrites.conditions(request, conditions);
    Element root = XmlInput.parse(request.body());
    CompleteMultipartUploadRequest.Builder complete = CompleteMultipartUploadRequest.newBuilder()
        .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
        .setUploadId(request.param("uploadId")).setMinPartSize(MIN_PART_SIZE).setIfMatch(conditions.getIfMatch())
        .setIfNoneMatch(conditions.getIfNoneMatch());
    for (Element part : XmlInput.children(root, "Part")) {
      try {
        complete.addParts(PartInfo.newBuilder().setPartNumber(Integer.parseInt(XmlInput.text(part, "PartNumber")))
            .setEtag(String.valueOf(XmlInput.text(part, "ETag"))));
      } catch (NumberFormatException e) {
        throw S3ErrorCode.MALFORMED_XML.error("A part has no valid PartNumber.");
      }
    }
    if (complete.getPartsCount() == 0) {
      throw S3ErrorCode.MALFORMED_XML.error("A CompleteMultipartUpload request names at least one part.");
    }
    KeyInfo key = OmCalls.call(request.bucket(), request.key(), () -> om.completeMultipartUpload(complete.build()));
    Versions.written(key, out);
    out.send(200, Xml.document("CompleteMultipartUploadResult").element("Location", "/" + request.bucket() + "/"
        + request.key()).element("Bucket", request.bucket()).element("Key", request.key())
        .element("ETag", ObjectMetadata.etag(key)).close("CompleteMultipartUploadResult").bytes(), "application/xml");
  }

  void abort(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.WRITE);
    OmCalls.run(request.bucket(), request.key(), () -> om.abortMultipartUpload(buckets.volume(), request.bucket(),
        request.key(), request.param("uploadId")));
    out.send(204, new byte[0], null);
  }

  void listParts(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.READ);
    int marker = intParam(request, "part-number-marker", 0);
    int max = Math.min(intParam(request, "max-parts", MAX_LISTED), MAX_LISTED);
    ListPartsResponse parts;
    parts = OmCalls.call(request.bucket(), request.key(), () -> om.listParts(ListPartsRequest.newBuilder()
        .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
        .setUploadId(request.param("uploadId")).setPartNumberMarker(marker).setMaxParts(max).build()));
    Xml xml = Xml.document("ListPartsResult").element("Bucket", request.bucket()).element("Key", request.key())
        .element("UploadId", request.param("uploadId")).element("PartNumberMarker", marker).element("MaxParts", max)
        .element("IsTruncated", parts.getTruncated());
    List<PartInfo> list = parts.getPartsList();
    if (parts.getTruncated() && !list.isEmpty()) {
      xml.element("NextPartNumberMarker", list.get(list.size() - 1).getPartNumber());
    }
    xml.open("Owner").element("ID", parts.getOwner()).element("DisplayName", parts.getOwner()).close("Owner")
        .element("StorageClass", "STANDARD");
    for (PartInfo p : list) {
      xml.open("Part").element("PartNumber", p.getPartNumber())
          .element("LastModified", S3Time.iso(p.getModificationTimeMs())).element("ETag", p.getEtag())
          .element("Size", p.getSize()).close("Part");
    }
    out.send(200, xml.close("ListPartsResult").bytes(), "application/xml");
  }

  void listUploads(S3Request request, Caller caller, S3Response out) throws S3Error {
    buckets.require(request, caller, Access.Permission.READ);
    String prefix = orEmpty(request.param("prefix"));
    int max = Math.min(intParam(request, "max-uploads", MAX_LISTED), MAX_LISTED);
    ListMultipartUploadsResponse uploads;
    uploads = OmCalls.call(request.bucket(), "", () -> om.listMultipartUploads(ListMultipartUploadsRequest
        .newBuilder().setVolume(buckets.volume()).setBucket(request.bucket()).setPrefix(prefix)
        .setKeyMarker(orEmpty(request.param("key-marker")))
        .setUploadIdMarker(orEmpty(request.param("upload-id-marker"))).setMaxUploads(max).build()));
    Xml xml = Xml.document("ListMultipartUploadsResult").element("Bucket", request.bucket())
        .element("KeyMarker", orEmpty(request.param("key-marker")))
        .element("UploadIdMarker", orEmpty(request.param("upload-id-marker"))).element("Prefix", prefix)
        .element("MaxUploads", max).element("IsTruncated", uploads.getTruncated());
    List<MultipartUploadInfo> list = uploads.getUploadsList();
    if (uploads.getTruncated() && !list.isEmpty()) {
      xml.element("NextKeyMarker", list.get(list.size() - 1).getKey())
          .element("NextUploadIdMarker", list.get(list.size() - 1).getUploadId());
    }
    for (MultipartUploadInfo u : list) {
      xml.open("Upload").element("Key", u.getKey()).element("UploadId", u.getUploadId())
          .open("Initiator").element("ID", u.getOwner()).element("DisplayName", u.getOwner()).close("Initiator")
          .open("Owner").element("ID", u.getOwner()).element("DisplayName", u.getOwner()).close("Owner")
          .element("StorageClass", "STANDARD").element("Initiated", S3Time.iso(u.getCreationTimeMs()))
          .close("Upload");
    }
    out.send(200, xml.close("ListMultipartUploadsResult").bytes(), "application/xml");
  }

  private static int intParam(S3Request request, String name, int fallback) throws S3Error {
    String value = request.param(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw S3ErrorCode.INVALID_ARGUMENT.error(name + " must be a number");
    }
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
