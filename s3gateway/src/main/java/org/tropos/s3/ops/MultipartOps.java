package org.tropos.s3.ops;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.EncryptionKind;
import org.tropos.proto.om.EncryptionRequest;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyEncryption;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.KmsEncryptedKey;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.ListPartsResponse;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.MultipartUploadInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.checksum.ChecksumAlgorithm;
import org.tropos.s3.checksum.MultipartChecksum;
import org.tropos.s3.checksum.ObjectChecksum;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
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
  private final AclRequests acls;
  private final CopyOps copies;

  MultipartOps(TroposClient om, BucketOps buckets, ObjectWrites objects, AclRequests acls, CopyOps copies) {
    this.om = om;
    this.buckets = buckets;
    this.objects = objects;
    this.acls = acls;
    this.copies = copies;
  }

  /**
   * CreateMultipartUpload: the object's metadata, tags ({@code x-amz-tagging}), ACL and the checksum asked for,
   * kept until Complete.
   */
  void initiate(S3Request request, Caller caller, S3Response out) throws S3Error {
    WriteRequestChecks.checkKey(request.key());
    WriteRequestChecks.checkHeaders(request);
    MultipartChecksum checksum = MultipartChecksum.ofCreate(request);
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.WRITE);
    ServerSideEncryption.Asked asked = ServerSideEncryption.asked(request);
    EncryptionRequest encryption = ServerSideEncryption.of(asked, bucket);
    S3Acl acl = acls.forWrite(request, caller.accessId(), bucket);
    InitiateMultipartUploadRequest.Builder initiate = InitiateMultipartUploadRequest.newBuilder()
        .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
        .putAllMetadata(ObjectMetadata.of(request))
        .putAllMetadata(TaggingOps.asMetadata(TaggingOps.fromHeader(request.header("x-amz-tagging"))))
        .putAllMetadata(checksum.asUploadMetadata()).setOwner(caller.accessId()).setAcl(acl.canned())
        .setGrants(acl.given());
    initiate.setEncryption(asked.request().toBuilder().setKind(encryption.getKind())
        .setKmsKeyId(encryption.getKmsKeyId()));
    buckets.storageClasses().apply(request.header(StorageClasses.HEADER), initiate);
    String uploadId = OmCalls.call(request.bucket(), request.key(), () -> om.initiateMultipartUpload(
        initiate.build()));
    checksum.asUploadMetadata().forEach(out.headers()::set);
    ServerSideEncryption.describe(KeyInfo.newBuilder().setEncryption(KeyEncryption.newBuilder()
        .setKind(encryption.getKind()).setKms(KmsEncryptedKey.newBuilder().setKeyName(encryption.getKmsKeyId())))
        .build(), out, request::header);
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
    ObjectWrites.Stored part = objects.upload(request, caller, buckets.writeTarget(request, caller, bucket),
        OpenKeyRequest.newBuilder().setUploadId(request.param("uploadId")).setPartNumber(number)
            .setEncryption(partEncryption(request)));
    out.headers().set("ETag", ObjectMetadata.etag(part.key()));
    ServerSideEncryption.describe(part.key(), out, request::header);
    part.checksum().addTo(out.headers());
    out.send(200, new byte[0], null);
  }

  /** A part is encrypted as its upload is: with SSE-C, under the customer's key it must carry again. */
  private static EncryptionRequest partEncryption(S3Request request) throws S3Error {
    ServerSideEncryption.Asked asked = ServerSideEncryption.asked(request);
    return asked.kind() == EncryptionKind.SSE_C ? asked.request() : EncryptionRequest.getDefaultInstance();
  }

  /**
   * UploadPartCopy: the part references a byte range of the source's blocks; no byte moves, except that the range
   * is read once for its checksum when the upload was created with a checksum algorithm. A part that cannot share
   * the source's blocks (either is encrypted, or the source is under a customer's key) is written anew from the
   * range's plaintext, encrypted as its upload is.
   */
  private void copyPart(S3Request request, Caller caller, BucketInfo bucket, int number, S3Response out)
      throws S3Error {
    CopyOps.Source source = CopyOps.Source.parse(request.header("x-amz-copy-source"));
    EncryptionKind encryption = partEncryption(request).getKind();
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
    ChecksumAlgorithm algorithm = MultipartChecksum.ofUpload(listParts(request, 0, 1).getMetadataMap()).algorithm();
    long firstByte = first;
    long lastByte = last;
    Xml result = OmCalls.againIfChanged(() -> {
      LookupKeyResponse found = source.lookup(om, buckets, request, caller);
      KeyInfo from = found.getKey();
      byte[] sourceKey = ServerSideEncryption.forCopySource(request, from);
      long end = lastByte < 0 ? from.getSize() - 1 : lastByte;
      boolean inRange = firstByte <= end && end < from.getSize() || lastByte < 0 && from.getSize() == 0;
      if (from.getEncryption().getKind() != EncryptionKind.ENCRYPTION_NONE
          || encryption == EncryptionKind.SSE_C) {
        return rewritePart(request, caller, bucket, number, found, sourceKey, firstByte, end, inRange, algorithm,
            out);
      }
      if (algorithm != null && inRange) { // else the OM refuses the range
        copy.setChecksum(MultipartChecksum.partEntry(CopyOps.checksumOf(om, found, firstByte, end - firstByte + 1,
            algorithm)));
      }
      try {
        PartInfo part = om.copyPart(copy.setSourceVersionId(from.getVersionId())
            .setExpectedObjectId(from.getObjectId()).build());
        return partResult(part.getModificationTimeMs(), part.getEtag(), MultipartChecksum.ofPartEntry(
            part.getChecksum()));
      } catch (OmException e) {
        if (e.result() == OmResult.NOT_SUPPORTED) { // the upload is encrypted: its parts are its own
          return rewritePart(request, caller, bucket, number, found, sourceKey, firstByte, end, inRange, algorithm,
              out);
        }
        throw e.result() == OmResult.INVALID_REQUEST ? S3ErrorCode.INVALID_RANGE.error(e.getMessage())
            : OmCalls.translate(e, source.bucket(), source.key());
      }
    });
    out.send(200, result.close("CopyPartResult").bytes(), "application/xml");
  }

  /** A copied part written anew from bytes {@code first} to {@code end} of the source's plaintext. */
  private Xml rewritePart(S3Request request, Caller caller, BucketInfo bucket, int number, LookupKeyResponse found,
      byte[] sourceKey, long first, long end, boolean inRange, ChecksumAlgorithm algorithm, S3Response out)
      throws S3Error {
    if (!inRange) {
      throw S3ErrorCode.INVALID_RANGE.error("The x-amz-copy-source-range bytes=" + first + "-" + end + " is not"
          + " within the source's " + found.getKey().getSize() + " bytes");
    }
    OpenKeyRequest.Builder open = OpenKeyRequest.newBuilder().setUploadId(request.param("uploadId"))
        .setPartNumber(number).setEncryption(partEncryption(request));
    ObjectWrites.Stored part = copies.rewrite(request, caller, bucket, open, found, sourceKey, first,
        end - first + 1, Optional.ofNullable(algorithm));
    ServerSideEncryption.describe(part.key(), out, request::header);
    return partResult(part.key().getModificationTimeMs(), ObjectMetadata.etag(part.key()),
        algorithm == null ? Optional.empty() : Optional.of(part.checksum()));
  }

  private static Xml partResult(long modified, String etag, Optional<ObjectChecksum> checksum) {
    Xml result = Xml.document("CopyPartResult").element("LastModified", S3Time.iso(modified)).element("ETag", etag);
    checksum.ifPresent(c -> c.addTo(result));
    return result;
  }

  /**
   * CompleteMultipartUpload, with If-Match / If-None-Match on the key it replaces checked when it commits.
   * Completing a completed upload again with the same parts answers the same object, as S3 does. The object's
   * checksum is joined from the parts' (as the OM lists them, and the OM checks at commit that they are still the
   * parts joined); a part checksum the request names must be the part's, and a FULL_OBJECT checksum it sends must
   * be the object's.
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
    ServerSideEncryption.Asked encryption = ServerSideEncryption.asked(request);
    if (encryption.kind() == EncryptionKind.SSE_C) {
      complete.setCustomerKeyCheck(TroposClient.customerKeyCheck(encryption.customerKey()));
    }
    List<Element> named = XmlInput.children(root, "Part");
    for (Element part : named) {
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
    Optional<ObjectChecksum> checksum = joinChecksums(request, complete, named);
    checksum.ifPresent(c -> complete.putAllMetadata(c.asMetadata()));
    KeyInfo key = OmCalls.call(request.bucket(), request.key(), () -> om.completeMultipartUpload(complete.build()));
    Versions.written(key, out);
    ServerSideEncryption.describe(key, out, request::header);
    Xml result = Xml.document("CompleteMultipartUploadResult").element("Location", "/" + request.bucket() + "/"
        + request.key()).element("Bucket", request.bucket()).element("Key", request.key())
        .element("ETag", ObjectMetadata.etag(key));
    ObjectChecksum.in(key.getMetadataMap()).ifPresent(c -> c.addTo(result));
    out.send(200, result.close("CompleteMultipartUploadResult").bytes(), "application/xml");
  }

  /**
   * The checksum of the object the parts {@code complete} names make, from the parts as the OM lists them now; each
   * part in {@code complete} gets the checksum it was listed with, for the OM to check at commit. BadDigest when
   * the request's own checksum of a part or of the whole object is not the one found.
   */
  private Optional<ObjectChecksum> joinChecksums(S3Request request, CompleteMultipartUploadRequest.Builder complete,
      List<Element> named) throws S3Error {
    ListPartsResponse first;
    try {
      first = listParts(request, 0, MAX_LISTED);
    } catch (S3Error e) {
      if (e.errorCode() == S3ErrorCode.NO_SUCH_UPLOAD) {
        return Optional.empty(); // completed already: the OM answers the object it made, or NoSuchUpload
      }
      throw e;
    }
    Map<Integer, PartInfo> listed = new HashMap<>();
    Map<String, String> uploadMetadata = first.getMetadataMap();
    for (ListPartsResponse page = first; ; ) {
      page.getPartsList().forEach(p -> listed.put(p.getPartNumber(), p));
      if (!page.getTruncated() || page.getPartsCount() == 0) {
        break;
      }
      page = listParts(request, page.getParts(page.getPartsCount() - 1).getPartNumber(), MAX_LISTED);
    }
    List<MultipartChecksum.Part> parts = new ArrayList<>();
    for (int i = 0; i < complete.getPartsCount(); i++) {
      PartInfo wanted = complete.getParts(i);
      PartInfo part = listed.get(wanted.getPartNumber());
      if (part == null) {
        return Optional.empty(); // the OM answers InvalidPart
      }
      for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
        String sent = XmlInput.text(named.get(i), a.xmlElement());
        if (sent != null && !part.getChecksum().equals(a.name() + ":" + sent.strip())) {
          throw S3ErrorCode.INVALID_PART.error("The " + a + " checksum of part " + wanted.getPartNumber()
              + " is not the one it was uploaded with.");
        }
      }
      complete.setParts(i, wanted.toBuilder().setChecksum(part.getChecksum()));
      parts.add(new MultipartChecksum.Part(part.getPartNumber(), part.getChecksum(), part.getSize()));
    }
    Optional<ObjectChecksum> joined = MultipartChecksum.ofUpload(uploadMetadata).join(parts);
    for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
      String sent = request.header(a.header());
      if (sent != null && (joined.isEmpty() || !joined.get().value().equals(sent.strip()))) {
        throw S3ErrorCode.BAD_DIGEST.error("The " + a + " you specified did not match the calculated checksum.");
      }
    }
    return joined;
  }

  private ListPartsResponse listParts(S3Request request, int marker, int max) throws S3Error {
    return OmCalls.call(request.bucket(), request.key(), () -> om.listParts(ListPartsRequest.newBuilder()
        .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
        .setUploadId(request.param("uploadId")).setPartNumberMarker(marker).setMaxParts(max).build()));
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
    ListPartsResponse parts = listParts(request, marker, max);
    Xml xml = Xml.document("ListPartsResult").element("Bucket", request.bucket()).element("Key", request.key())
        .element("UploadId", request.param("uploadId")).element("PartNumberMarker", marker).element("MaxParts", max)
        .element("IsTruncated", parts.getTruncated());
    List<PartInfo> list = parts.getPartsList();
    if (parts.getTruncated() && !list.isEmpty()) {
      xml.element("NextPartNumberMarker", list.get(list.size() - 1).getPartNumber());
    }
    xml.open("Owner").element("ID", parts.getOwner()).element("DisplayName", parts.getOwner()).close("Owner")
        .element("StorageClass", buckets.storageClasses().of(parts.getFactor(), parts.hasEc(), parts.getEc()));
    MultipartChecksum asked = MultipartChecksum.ofUpload(parts.getMetadataMap());
    if (asked.algorithm() != null) {
      xml.element("ChecksumAlgorithm", asked.algorithm().name()).element("ChecksumType", asked.type().name());
    }
    for (PartInfo p : list) {
      xml.open("Part").element("PartNumber", p.getPartNumber())
          .element("LastModified", S3Time.iso(p.getModificationTimeMs())).element("ETag", p.getEtag())
          .element("Size", p.getSize());
      MultipartChecksum.ofPartEntry(p.getChecksum()).ifPresent(c -> xml.element(c.algorithm().xmlElement(),
          c.value()));
      xml.close("Part");
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
      String storageClass = buckets.storageClasses().of(u.getFactor(), u.hasEc(), u.getEc());
      xml.open("Upload").element("Key", u.getKey()).element("UploadId", u.getUploadId())
          .open("Initiator").element("ID", u.getOwner()).element("DisplayName", u.getOwner()).close("Initiator")
          .open("Owner").element("ID", u.getOwner()).element("DisplayName", u.getOwner()).close("Owner")
          .element("StorageClass", storageClass).element("Initiated", S3Time.iso(u.getCreationTimeMs()))
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
