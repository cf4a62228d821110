package org.tropos.om.rpc;

import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.CopyKeyResponse;
import org.tropos.proto.om.CreateDirectoryRequest;
import org.tropos.proto.om.CreateDirectoryResponse;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.GetFileStatusRequest;
import org.tropos.proto.om.GetFileStatusResponse;
import org.tropos.proto.om.ListKeyVersionsRequest;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.ListKeysRequest;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.ListStatusRequest;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.RenameKeyRequest;
import org.tropos.proto.om.RenameKeyResponse;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.SetFileAttributesResponse;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.proto.om.SetKeyTagsResponse;

/**
 * The calls on keys and directories that read or change only the namespace (listing, status, renames, deletes,
 * copies, tags, attributes), never a block: unlike {@link KeyDataPath} they need no SCM, tokens or data keys, only
 * the access check of each, made before the namespace is read or changed.
 */
final class KeyNamespaceCalls {
  private final Namespace namespace;
  private final AccessChecks access;

  KeyNamespaceCalls(Namespace namespace, AccessChecks access) {
    this.namespace = namespace;
    this.access = access;
  }

  ListKeysResponse listKeys(ListKeysRequest r) throws OmException {
    access.listKeys(r.getVolume(), r.getBucket(), r.getPrefix());
    return namespace.listKeys(r.getVolume(), r.getBucket(), r.getPrefix(), r.getStartAfter(), r.getMaxResults());
  }

  DeleteKeyResponse deleteKey(DeleteKeyRequest r) throws OmException {
    access.delete(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId());
    return namespace.deleteKey(r.toBuilder().setOwner(access.owner(r.getOwner())).build());
  }

  RenameKeyResponse renameKey(RenameKeyRequest r) throws OmException {
    access.delete(r.getVolume(), r.getBucket(), r.getKey(), "");
    access.create(r.getVolume(), r.getBucket(), r.getToKey());
    namespace.renameKey(r.getVolume(), r.getBucket(), r.getKey(), r.getToKey());
    return RenameKeyResponse.getDefaultInstance();
  }

  CreateDirectoryResponse createDirectory(CreateDirectoryRequest r) throws OmException {
    access.create(r.getVolume(), r.getBucket(), r.getPath());
    return CreateDirectoryResponse.newBuilder().setDirectory(namespace.createDirectory(r.getVolume(), r.getBucket(),
        r.getPath(), access.owner(r.getOwner()))).build();
  }

  GetFileStatusResponse getFileStatus(GetFileStatusRequest r) throws OmException {
    access.checkStatusReadable(r.getVolume(), r.getBucket(), r.getPath());
    return GetFileStatusResponse.newBuilder().setStatus(namespace.getFileStatus(r.getVolume(), r.getBucket(),
        r.getPath())).build();
  }

  SetFileAttributesResponse setFileAttributes(SetFileAttributesRequest r) throws OmException {
    access.setAttributes(r);
    return SetFileAttributesResponse.newBuilder().setStatus(namespace.setFileAttributes(r)).build();
  }

  ListStatusResponse listStatus(ListStatusRequest r) throws OmException {
    access.list(r.getVolume(), r.getBucket(), r.getPath());
    return namespace.listStatus(r.getVolume(), r.getBucket(), r.getPath(), r.getStartAfter(), r.getMaxResults());
  }

  CopyKeyResponse copyKey(CopyKeyRequest r) throws OmException {
    access.key(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId(), AclRight.RIGHT_READ,
        S3Actions.GET_OBJECT);
    access.create(r.getToVolume(), r.getToBucket(), r.getToKey());
    return CopyKeyResponse.newBuilder().setKey(namespace.copyKey(r.toBuilder().setOwner(access.owner(
        r.getOwner())).build())).build();
  }

  SetKeyTagsResponse setKeyTags(SetKeyTagsRequest r) throws OmException {
    // Removing every tag is S3's DeleteObjectTagging.
    access.key(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId(), AclRight.RIGHT_WRITE,
        r.getTagsCount() == 0 ? S3Actions.DELETE_OBJECT_TAGGING : S3Actions.PUT_OBJECT_TAGGING);
    return SetKeyTagsResponse.newBuilder().setKey(namespace.setKeyTags(r)).build();
  }

  ListKeyVersionsResponse listKeyVersions(ListKeyVersionsRequest r) throws OmException {
    access.keys(r.getVolume(), r.getBucket(), "", AclRight.RIGHT_LIST, S3Actions.LIST_BUCKET_VERSIONS);
    return namespace.listKeyVersions(r);
  }
}
