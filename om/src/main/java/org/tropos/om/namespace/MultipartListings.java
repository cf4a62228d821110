package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsResponse;
import org.tropos.proto.om.MultipartUploadInfo;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.db.BucketRow;
import org.tropos.proto.om.db.MultipartPartRow;
import org.tropos.proto.om.db.MultipartUploadRow;

/** The multipart uploads under way in a bucket, and the parts of one, a page at a time. */
final class MultipartListings {
  private MultipartListings() {
  }

  static ListPartsResponse listParts(Txn txn, BucketRow bucket, String key, String uploadId, int marker, int max)
      throws OmException {
    MultipartUploadRow upload = Multipart.upload(txn, bucket, key, uploadId);
    Listing.Page<PartInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] prefix = MultipartKeys.partsOf(uploadId);
    txn.scan(OmTable.MULTIPART_PARTS, prefix, MultipartKeys.part(uploadId, marker + 1), MultipartPartRow.parser(),
        (k, part) -> page.add(Multipart.partInfo(part)));
    ListPartsResponse.Builder parts = ListPartsResponse.newBuilder().addAllParts(page.items())
        .setTruncated(page.truncated()).setOwner(upload.getOwner()).putAllMetadata(upload.getMetadataMap())
        .setFactor(upload.getFactor());
    return (upload.hasEc() ? parts.setEc(upload.getEc()) : parts).build();
  }

  static ListMultipartUploadsResponse listUploads(Txn txn, BucketRow bucket, String prefix, String keyMarker,
      String uploadIdMarker, int max) throws OmException {
    Listing.Page<MultipartUploadInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] scanPrefix = MultipartKeys.uploadsOf(bucket, prefix);
    byte[] from = keyMarker.isEmpty() ? scanPrefix : MultipartKeys.uploadsAfter(bucket, keyMarker, uploadIdMarker);
    txn.scan(OmTable.MULTIPART_UPLOADS, scanPrefix, from, MultipartUploadRow.parser(), (k, upload) -> {
      MultipartUploadInfo.Builder info = MultipartUploadInfo.newBuilder().setKey(upload.getKey())
          .setUploadId(upload.getUploadId()).setOwner(upload.getOwner())
          .setCreationTimeMs(upload.getCreationTimeMs()).setFactor(upload.getFactor());
      return page.add((upload.hasEc() ? info.setEc(upload.getEc()) : info).build());
    });
    return ListMultipartUploadsResponse.newBuilder().addAllUploads(page.items()).setTruncated(page.truncated())
        .build();
  }
}
