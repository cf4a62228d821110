package org.tropos.s3.ops;

import java.io.IOException;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.s3.S3Error;
import org.tropos.s3.S3ErrorCode;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;
import org.tropos.s3.http.Xml;

/** ListBuckets, CreateBucket, HeadBucket, DeleteBucket, GetBucketLocation. S3 buckets live in one volume. */
final class BucketOps {
  private static final String REGION = "us-east-1";

  private final TroposClient om;
  private final String volume;
  private final BucketLayout layout;

  BucketOps(TroposClient om, String volume, BucketLayout layout) {
    this.om = om;
    this.volume = volume;
    this.layout = layout;
  }

  String volume() {
    return volume;
  }

  /** The bucket, if {@code caller} may use it. */
  BucketInfo require(String bucket, Caller caller) throws S3Error {
    BucketInfo info = OmCalls.call(bucket, "", () -> om.getBucket(volume, bucket));
    Access.checkOwner(info, caller);
    return info;
  }

  void list(S3Request request, Caller caller, S3Response out) throws S3Error {
    Xml xml = Xml.document("ListAllMyBucketsResult").open("Owner").element("ID", caller).element("DisplayName", caller)
        .close("Owner").open("Buckets");
    try {
      List<BucketInfo> buckets = om.listBuckets(volume, "");
      for (BucketInfo b : buckets) {
        if (b.getOwner().equals(caller.accessId()) || caller.administrator()) {
          xml.open("Bucket").element("Name", b.getName()).element("CreationDate", S3Time.iso(b.getCreationTimeMs()))
              .close("Bucket");
        }
      }
    } catch (OmException e) {
      if (e.result() != OmResult.VOLUME_NOT_FOUND) {
        throw OmCalls.translate(e, "", "");
      }
    }
    out.send(200, xml.close("Buckets").close("ListAllMyBucketsResult").bytes(), "application/xml");
  }

  void create(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    request.body().transferTo(java.io.OutputStream.nullOutputStream());
    BucketInfo wanted = BucketInfo.newBuilder().setVolume(volume).setName(request.bucket()).setOwner(caller.accessId())
        .setLayout(layout).setFactor(ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED).build();
    try {
      createVolumeIfMissing();
      om.createBucket(wanted);
    } catch (OmException e) {
      if (e.result() != OmResult.BUCKET_ALREADY_EXISTS) {
        throw OmCalls.translate(e, request.bucket(), "");
      }
      BucketInfo existing = require(request.bucket(), caller);
      if (!existing.getOwner().equals(caller)) {
        throw OmCalls.translate(e, request.bucket(), "");
      }
      throw S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU.error("Your previous request to create the named bucket"
          + " succeeded and you already own it.");
    }
    out.headers().set("Location", "/" + request.bucket());
    out.send(200, new byte[0], null);
  }

  private void createVolumeIfMissing() throws OmException {
    try {
      om.getVolume(volume);
    } catch (OmException e) {
      if (e.result() != OmResult.VOLUME_NOT_FOUND) {
        throw e;
      }
      try {
        om.createVolume(VolumeInfo.newBuilder().setName(volume).setOwner("s3").build());
      } catch (OmException raced) {
        if (raced.result() != OmResult.VOLUME_ALREADY_EXISTS) {
          throw raced;
        }
      }
    }
  }

  void head(S3Request request, Caller caller, S3Response out) throws S3Error {
    require(request.bucket(), caller);
    out.headers().set("x-amz-bucket-region", REGION);
    out.sendHead(200, 0);
  }

  void delete(S3Request request, Caller caller, S3Response out) throws S3Error {
    require(request.bucket(), caller);
    OmCalls.run(request.bucket(), "", () -> om.deleteBucket(volume, request.bucket()));
    out.send(204, new byte[0], null);
  }

  void location(S3Request request, Caller caller, S3Response out) throws S3Error {
    require(request.bucket(), caller);
    out.send(200, Xml.document("LocationConstraint").close("LocationConstraint").bytes(), "application/xml");
  }
}
