package org.tropos.s3.ops;

import java.io.IOException;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.AclPermission;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CannedAcl;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.s3.auth.Caller;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;
import org.tropos.s3.http.S3Request;
import org.tropos.s3.http.S3Response;

/**
 * Get/PutBucketAcl and Get/PutObjectAcl: a canned ACL by {@code x-amz-acl}, grants by {@code x-amz-grant-*}, or an
 * AccessControlPolicy document ({@link AclRequests}). Reading an ACL takes READ_ACP, changing it WRITE_ACP (or
 * being the owner); the owner stays the owner whoever changes the ACL.
 */
final class AclOps {
  private final TroposClient om;
  private final BucketOps buckets;
  private final AclRequests requests;

  AclOps(TroposClient om, BucketOps buckets, AclRequests requests) {
    this.om = om;
    this.buckets = buckets;
    this.requests = requests;
  }

  void getBucketAcl(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.READ_ACP);
    out.send(200, AclDocuments.document(bucket.getOwner(), bucket.getOwner(), S3Acl.of(bucket)), "application/xml");
  }

  void putBucketAcl(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.require(request, caller, Access.Permission.WRITE_ACP);
    S3Acl acl = requests.requested(request, bucket.getOwner(), bucket.getOwner());
    if (acl.canned() == CannedAcl.ACL_BUCKET_OWNER_READ || acl.canned() == CannedAcl.ACL_BUCKET_OWNER_FULL_CONTROL) {
      throw S3ErrorCode.INVALID_ARGUMENT.error("bucket-owner-read and bucket-owner-full-control are object ACLs");
    }
    AclRequests.checkTaken(bucket, acl, true);
    OmCalls.call(request.bucket(), "", () -> om.setBucketProperties(SetBucketPropertiesRequest.newBuilder()
        .setVolume(buckets.volume()).setName(request.bucket()).setAcl(acl.canned()).setGrants(acl.given())
        .build()));
    out.send(200, new byte[0], null);
  }

  void getObjectAcl(S3Request request, Caller caller, S3Response out) throws S3Error {
    BucketInfo bucket = buckets.find(request);
    KeyInfo key = granted(bucket, request, caller, AclPermission.ACL_READ_ACP, "read the ACL of");
    Versions.header(bucket, key, out);
    out.send(200, AclDocuments.document(key.getOwner(), bucket.getOwner(), S3Acl.of(key)), "application/xml");
  }

  void putObjectAcl(S3Request request, Caller caller, S3Response out) throws S3Error, IOException {
    BucketInfo bucket = buckets.find(request);
    KeyInfo checked = granted(bucket, request, caller, AclPermission.ACL_WRITE_ACP, "change the ACL of");
    S3Acl acl = requests.requested(request, checked.getOwner(), bucket.getOwner());
    AclRequests.checkTaken(bucket, acl, true);
    KeyInfo changed = OmCalls.againIfChanged(() -> {
      KeyInfo key = granted(bucket, request, caller, AclPermission.ACL_WRITE_ACP, "change the ACL of");
      return OmCalls.call(request.bucket(), request.key(), () -> om.setKeyAcl(SetKeyAclRequest.newBuilder()
          .setVolume(buckets.volume()).setBucket(request.bucket()).setKey(request.key())
          .setVersionId(key.getVersionId()).setExpectedObjectId(key.getObjectId()).setAcl(acl.canned())
          .setGrants(acl.given()).build()));
    });
    Versions.header(bucket, changed, out);
    out.send(200, new byte[0], null);
  }

  /** The version the request names, if {@code caller} owns it or its ACL grants {@code permission}. */
  private KeyInfo granted(BucketInfo bucket, S3Request request, Caller caller, AclPermission permission,
      String what) throws S3Error {
    KeyInfo key = ObjectReads.lookup(om, buckets, bucket, request, caller, false).getKey();
    Access.checkGranted(bucket, key, caller, permission, what);
    return key;
  }
}
