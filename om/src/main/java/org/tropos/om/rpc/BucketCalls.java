package org.tropos.om.rpc;

import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CreateBucketRequest;
import org.tropos.proto.om.CreateBucketResponse;
import org.tropos.proto.om.DeleteBucketRequest;
import org.tropos.proto.om.DeleteBucketResponse;
import org.tropos.proto.om.GetBucketRequest;
import org.tropos.proto.om.GetBucketResponse;
import org.tropos.proto.om.ListBucketsRequest;
import org.tropos.proto.om.ListBucketsResponse;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetBucketPropertiesResponse;

/**
 * The calls on buckets: creating, reading, listing, changing and deleting them, each checked as the S3 action it is
 * ({@link BucketPropertyActions} for a change of properties). They are apart from the key calls because a bucket's
 * default encryption must be one this OM can serve ({@link DataKeyBroker#requireFor}) before it is set.
 */
final class BucketCalls {
  private final Namespace namespace;
  private final AccessChecks access;
  private final DataKeyBroker keyBroker;

  BucketCalls(Namespace namespace, AccessChecks access, DataKeyBroker keyBroker) {
    this.namespace = namespace;
    this.access = access;
    this.keyBroker = keyBroker;
  }

  CreateBucketResponse create(CreateBucketRequest r) throws OmException {
    access.createBucket(r.getBucket().getVolume(), r.getBucket().getName());
    BucketInfo bucket = r.getBucket().toBuilder().setOwner(access.owner(r.getBucket().getOwner())).build();
    keyBroker.requireFor(bucket.getEncryption());
    return CreateBucketResponse.newBuilder().setBucket(namespace.createBucket(bucket)).build();
  }

  GetBucketResponse get(GetBucketRequest r) throws OmException {
    if (!AccessChecks.fromGateway()) {
      access.bucket(r.getVolume(), r.getName(), AclRight.RIGHT_READ, S3Actions.LIST_BUCKET);
    }
    return GetBucketResponse.newBuilder().setBucket(namespace.getBucket(r.getVolume(), r.getName())).build();
  }

  ListBucketsResponse list(ListBucketsRequest r) throws OmException {
    access.requireIdentified("list buckets");
    // A caller that may not list the volume sees the buckets it owns (S3's ListBuckets).
    String owner = access.listsAllBuckets(r.getVolume()) ? null : Callers.current();
    return namespace.listBuckets(r.getVolume(), r.getPrefix(), r.getStartAfter(), r.getMaxResults(), owner);
  }

  DeleteBucketResponse delete(DeleteBucketRequest r) throws OmException {
    access.bucket(r.getVolume(), r.getName(), AclRight.RIGHT_DELETE, S3Actions.DELETE_BUCKET);
    namespace.deleteBucket(r.getVolume(), r.getName());
    return DeleteBucketResponse.getDefaultInstance();
  }

  SetBucketPropertiesResponse setProperties(SetBucketPropertiesRequest r) throws OmException {
    for (String action : BucketPropertyActions.of(r)) {
      access.bucket(r.getVolume(), r.getName(), BucketPropertyActions.right(action), action);
    }
    keyBroker.requireFor(r.getEncryption());
    return SetBucketPropertiesResponse.newBuilder().setBucket(namespace.setBucketProperties(r)).build();
  }
}
