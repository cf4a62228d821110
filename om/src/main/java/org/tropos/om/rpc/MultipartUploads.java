package org.tropos.om.rpc;

import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.AbortMultipartUploadRequest;
import org.tropos.proto.om.AbortMultipartUploadResponse;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CompleteMultipartUploadResponse;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.CopyPartResponse;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.InitiateMultipartUploadResponse;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.ListPartsResponse;

/**
 * The calls of an S3 multipart upload, from its start to its completion or abort, each checked as the S3 action it
 * is. They are apart because an upload is a key written in parts over many calls: each part is checked as a write
 * of the key, and the upload's data key is made when it starts, as for a key opened in one piece.
 */
final class MultipartUploads {
  private final Namespace namespace;
  private final AccessChecks access;
  private final DataKeyBroker keyBroker;

  MultipartUploads(Namespace namespace, AccessChecks access, DataKeyBroker keyBroker) {
    this.namespace = namespace;
    this.access = access;
    this.keyBroker = keyBroker;
  }

  InitiateMultipartUploadResponse initiate(InitiateMultipartUploadRequest r) throws OmException {
    access.create(r.getVolume(), r.getBucket(), r.getKey());
    InitiateMultipartUploadRequest owned = r.toBuilder().setOwner(access.owner(r.getOwner())).build();
    return InitiateMultipartUploadResponse.newBuilder().setUploadId(keyBroker.open(r.getEncryption(),
        encryption -> namespace.initiateMultipartUpload(owned.toBuilder().setEncryption(encryption).build())))
        .build();
  }

  CompleteMultipartUploadResponse complete(CompleteMultipartUploadRequest r) throws OmException {
    access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT);
    return CompleteMultipartUploadResponse.newBuilder().setKey(namespace.completeMultipartUpload(r)).build();
  }

  AbortMultipartUploadResponse abort(AbortMultipartUploadRequest r) throws OmException {
    access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_CREATE, S3Actions.ABORT_UPLOAD);
    namespace.abortMultipartUpload(r.getVolume(), r.getBucket(), r.getKey(), r.getUploadId());
    return AbortMultipartUploadResponse.getDefaultInstance();
  }

  ListPartsResponse listParts(ListPartsRequest r) throws OmException {
    access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_LIST, S3Actions.LIST_PARTS);
    return namespace.listParts(r);
  }

  ListMultipartUploadsResponse list(ListMultipartUploadsRequest r) throws OmException {
    access.keys(r.getVolume(), r.getBucket(), "", AclRight.RIGHT_LIST, S3Actions.LIST_UPLOADS);
    return namespace.listMultipartUploads(r);
  }

  /** A part copied from another key: the source must be readable, as S3's UploadPartCopy. */
  CopyPartResponse copyPart(CopyPartRequest r) throws OmException {
    access.key(r.getSourceVolume(), r.getSourceBucket(), r.getSourceKey(), r.getSourceVersionId(),
        AclRight.RIGHT_READ, S3Actions.GET_OBJECT);
    access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT);
    return CopyPartResponse.newBuilder().setPart(namespace.copyPart(r)).build();
  }
}
