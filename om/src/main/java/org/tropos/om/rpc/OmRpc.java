package org.tropos.om.rpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.tropos.common.acl.S3Actions;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.SecretKeyRing;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.UserAuthenticator;
import org.tropos.common.util.Clock;
import org.tropos.om.acl.Authorizer;
import org.tropos.om.acl.Resource;
import org.tropos.om.kms.HadoopKms;
import org.tropos.om.namespace.KeyEncryptions;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.scm.ScmBlocks;
import org.tropos.om.token.DelegationTokens;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.AbortMultipartUploadRequest;
import org.tropos.proto.om.AbortMultipartUploadResponse;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AllocateKeyBlockRequest;
import org.tropos.proto.om.AllocateKeyBlockResponse;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CancelDelegationTokenRequest;
import org.tropos.proto.om.CancelDelegationTokenResponse;
import org.tropos.proto.om.ChangeAclRequest;
import org.tropos.proto.om.ChangeAclResponse;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.CheckS3SignatureResponse;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CommitKeyResponse;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CompleteMultipartUploadResponse;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.CopyKeyResponse;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.CopyPartResponse;
import org.tropos.proto.om.CreateBucketRequest;
import org.tropos.proto.om.CreateBucketResponse;
import org.tropos.proto.om.CreateDirectoryRequest;
import org.tropos.proto.om.CreateDirectoryResponse;
import org.tropos.proto.om.CreateVolumeRequest;
import org.tropos.proto.om.CreateVolumeResponse;
import org.tropos.proto.om.DeleteBucketRequest;
import org.tropos.proto.om.DeleteBucketResponse;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.DeleteVolumeRequest;
import org.tropos.proto.om.DeleteVolumeResponse;
import org.tropos.proto.om.GetAclRequest;
import org.tropos.proto.om.GetAclResponse;
import org.tropos.proto.om.GetBucketRequest;
import org.tropos.proto.om.GetBucketResponse;
import org.tropos.proto.om.GetDelegationTokenRequest;
import org.tropos.proto.om.GetDelegationTokenResponse;
import org.tropos.proto.om.GetFileStatusRequest;
import org.tropos.proto.om.GetFileStatusResponse;
import org.tropos.proto.om.GetOmRoleRequest;
import org.tropos.proto.om.GetOmRoleResponse;
import org.tropos.proto.om.GetS3SecretRequest;
import org.tropos.proto.om.GetS3SecretResponse;
import org.tropos.proto.om.GetVolumeRequest;
import org.tropos.proto.om.GetVolumeResponse;
import org.tropos.proto.om.HasS3SecretRequest;
import org.tropos.proto.om.HasS3SecretResponse;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.InitiateMultipartUploadResponse;
import org.tropos.proto.om.LeaseBlocksRequest;
import org.tropos.proto.om.LeaseBlocksResponse;
import org.tropos.proto.om.ListBucketsRequest;
import org.tropos.proto.om.ListBucketsResponse;
import org.tropos.proto.om.ListKeyVersionsRequest;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.ListKeysRequest;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.ListPartsResponse;
import org.tropos.proto.om.ListStatusRequest;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.ListVolumesRequest;
import org.tropos.proto.om.ListVolumesResponse;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.om.RenameKeyRequest;
import org.tropos.proto.om.RenameKeyResponse;
import org.tropos.proto.om.RenewDelegationTokenRequest;
import org.tropos.proto.om.RenewDelegationTokenResponse;
import org.tropos.proto.om.RevokeS3SecretRequest;
import org.tropos.proto.om.RevokeS3SecretResponse;
import org.tropos.proto.om.S3IdentityServiceGrpc;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetBucketPropertiesResponse;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.SetFileAttributesResponse;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.SetKeyAclResponse;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.proto.om.SetKeyTagsResponse;
import org.tropos.proto.om.SetS3SecretRequest;
import org.tropos.proto.om.SetS3SecretResponse;
import org.tropos.proto.om.TransferOmLeadershipRequest;
import org.tropos.proto.om.TransferOmLeadershipResponse;
import org.tropos.proto.om.db.OpenKeyRow;
import org.tropos.proto.scm.ExcludeList;

/**
 * The OM's client service: decodes each call, runs it against the {@link Namespace}, and for keys being written
 * or read talks to SCM (block allocation, container locations) outside the optimistic transaction, which may run
 * more than once.
 */
public final class OmRpc extends OmServiceGrpc.OmServiceImplBase {
  /**
   * Who may call the OM in a secure cluster: a user with a certificate, acting as the user it names, or proven by a
   * Kerberos ticket or a delegation token instead, and the S3 gateway, acting for the S3 users it serves
   * ({@link org.tropos.common.rpc.Callers}). A caller with none of these, or with another daemon's certificate, is
   * refused before anything is read or changed.
   */
  public static PeerRoles.Admission admission(String clusterId) {
    return new PeerRoles.Admission(Map.of(OmServiceGrpc.SERVICE_NAME, Set.of(ServiceRole.USER, ServiceRole.S3G),
        S3IdentityServiceGrpc.SERVICE_NAME, Set.of(ServiceRole.USER),
        OmServiceGrpc.getCheckS3SignatureMethod().getFullMethodName(), Set.of(ServiceRole.S3G),
        OmServiceGrpc.getHasS3SecretMethod().getFullMethodName(), Set.of(ServiceRole.S3G)), Set.of(), clusterId);
  }

  private final Namespace namespace;
  private final ScmBlocks scm;
  private final long blockSize;
  private final Administrators administrators;
  private final OmCalls calls;
  private final Leadership leadership;
  private final BlockGrants grants;
  private final OpenKeySeals seals;
  private final DataKeyBroker keyBroker;
  private final DelegationTokens tokens;
  private final AccessChecks access;

  /**
   * How the OM decides access: the {@code authorizer} (when {@code enabled}, ozone.acl.enabled), and the S3 volume,
   * which every user may create (as the OM's user's) on its first bucket.
   */
  public record AccessSettings(Authorizer authorizer, boolean enabled, String s3Volume) {
  }

  /**
   * The service; {@code leadership} says when this OM may serve (an HA service's leader only), {@code secretKeys}
   * (SCM's) seal the open keys handed to writers, {@code tokens} signs the block tokens handed out with block
   * locations, {@code delegationTokens} issues and checks delegation tokens (all three absent or off when the cluster
   * is not secure); {@code kms} makes and decrypts the data keys of SSE-KMS keys.
   */
  public OmRpc(Namespace namespace, ScmBlocks scm, long blockSize, Administrators administrators,
      Leadership leadership, Optional<SecretKeyRing> secretKeys, BlockTokens tokens, DelegationTokens delegationTokens,
      AccessSettings access, Optional<HadoopKms> kms) {
    this.grants = new BlockGrants(tokens);
    this.seals = new OpenKeySeals(secretKeys);
    this.keyBroker = new DataKeyBroker(kms, namespace.dataKeys());
    this.tokens = delegationTokens;
    this.calls = new OmCalls(leadership, delegationTokens);
    this.leadership = leadership;
    this.namespace = namespace;
    this.scm = scm;
    this.blockSize = blockSize;
    this.administrators = administrators;
    this.access = new AccessChecks(access.authorizer(), access.enabled(), administrators, access.s3Volume(),
        namespace);
  }

  @Override
  public void createVolume(CreateVolumeRequest r, StreamObserver<CreateVolumeResponse> o) {
    calls.respond("CreateVolume", o, () -> CreateVolumeResponse.newBuilder()
        .setVolume(namespace.createVolume(access.volumeToCreate(r.getVolume()))).build());
  }

  @Override
  public void getVolume(GetVolumeRequest r, StreamObserver<GetVolumeResponse> o) {
    calls.respondRead("GetVolume", o, () -> {
      if (!AccessChecks.fromGateway()) {
        access.volume(r.getName(), AclRight.RIGHT_READ);
      }
      return GetVolumeResponse.newBuilder().setVolume(namespace.getVolume(r.getName())).build();
    });
  }

  @Override
  public void listVolumes(ListVolumesRequest r, StreamObserver<ListVolumesResponse> o) {
    calls.respondRead("ListVolumes", o, () -> {
      access.requireIdentified("list volumes");
      return namespace.listVolumes(r.getPrefix(), r.getStartAfter(), r.getMaxResults());
    });
  }

  @Override
  public void deleteVolume(DeleteVolumeRequest r, StreamObserver<DeleteVolumeResponse> o) {
    calls.respond("DeleteVolume", o, () -> {
      access.volume(r.getName(), AclRight.RIGHT_DELETE);
      namespace.deleteVolume(r.getName());
      return DeleteVolumeResponse.getDefaultInstance();
    });
  }

  @Override
  public void createBucket(CreateBucketRequest r, StreamObserver<CreateBucketResponse> o) {
    calls.respond("CreateBucket", o, () -> {
      access.createBucket(r.getBucket().getVolume(), r.getBucket().getName());
      BucketInfo bucket = r.getBucket().toBuilder().setOwner(access.owner(r.getBucket().getOwner())).build();
      keyBroker.requireFor(bucket.getEncryption());
      return CreateBucketResponse.newBuilder().setBucket(namespace.createBucket(bucket)).build();
    });
  }

  @Override
  public void getBucket(GetBucketRequest r, StreamObserver<GetBucketResponse> o) {
    calls.respondRead("GetBucket", o, () -> {
      if (!AccessChecks.fromGateway()) {
        access.bucket(r.getVolume(), r.getName(), AclRight.RIGHT_READ, S3Actions.LIST_BUCKET);
      }
      return GetBucketResponse.newBuilder().setBucket(namespace.getBucket(r.getVolume(), r.getName())).build();
    });
  }

  @Override
  public void listBuckets(ListBucketsRequest r, StreamObserver<ListBucketsResponse> o) {
    calls.respondRead("ListBuckets", o, () -> {
      access.requireIdentified("list buckets");
      // A caller that may not list the volume sees the buckets it owns (S3's ListBuckets).
      String owner = access.listsAllBuckets(r.getVolume()) ? null : Callers.current();
      return namespace.listBuckets(r.getVolume(), r.getPrefix(), r.getStartAfter(), r.getMaxResults(), owner);
    });
  }

  @Override
  public void deleteBucket(DeleteBucketRequest r, StreamObserver<DeleteBucketResponse> o) {
    calls.respond("DeleteBucket", o, () -> {
      access.bucket(r.getVolume(), r.getName(), AclRight.RIGHT_DELETE, S3Actions.DELETE_BUCKET);
      namespace.deleteBucket(r.getVolume(), r.getName());
      return DeleteBucketResponse.getDefaultInstance();
    });
  }

  /** Records the open key, then (outside the transaction) allocates its first block when its size is known. */
  @Override
  public void openKey(OpenKeyRequest r, StreamObserver<OpenKeyResponse> o) {
    calls.respond("OpenKey", o, () -> {
      access.create(r.getVolume(), r.getBucket(), r.getKey());
      OpenKeyRequest owned = r.toBuilder().setOwner(access.owner(r.getOwner())).build();
      OpenKeyRow open = keyBroker.open(r.getEncryption(), encryption -> namespace.openKey(owned.toBuilder()
          .setEncryption(encryption).build()));
      OpenKeyResponse.Builder response = OpenKeyResponse.newBuilder().setOpenId(open.getOpenId())
          .setOpenKey(seals.seal(open));
      if (KeyEncryptions.keepsDataKey(open.getEncryption()) && r.getEncryption().getDataKey().isEmpty()) {
        response.setDataKey(ByteString.copyFrom(keyBroker.dataKey(open.getEncryption())))
            .setEncryption(open.getEncryption().getKind());
      }
      if (r.getSize() > 0) {
        response.setFirstBlock(grants.forWriter(scm.allocate(Math.min(r.getSize(), blockSize), open.getFactor(),
            ExcludeList.getDefaultInstance())));
      }
      return response.build();
    });
  }

  @Override
  public void allocateBlock(AllocateKeyBlockRequest r, StreamObserver<AllocateKeyBlockResponse> o) {
    calls.respond("AllocateBlock", o, () -> {
      ByteString row = seals.unseal(r.getOpenKey());
      access.keys(r.getVolume(), r.getBucket(), openKeyOf(row).getPath(), AclRight.RIGHT_CREATE,
          S3Actions.PUT_OBJECT);
      ReplicationFactor factor = namespace.openKeyOf(r.getVolume(), r.getBucket(), row).getFactor();
      long size = r.getSize() > 0 ? Math.min(r.getSize(), blockSize) : blockSize;
      return AllocateKeyBlockResponse.newBuilder().setBlock(grants.forWriter(scm.allocate(size, factor,
          r.getExclude()))).build();
    });
  }

  @Override
  public void leaseBlocks(LeaseBlocksRequest r, StreamObserver<LeaseBlocksResponse> o) {
    calls.respond("LeaseBlocks", o, () -> {
      access.requireIdentified("lease blocks");
      return LeaseBlocksResponse.newBuilder().addAllBlocks(grants.forWriter(scm.lease(r.getCount(), r.getSize(),
          r.getFactor()))).build();
    });
  }

  @Override
  public void commitKey(CommitKeyRequest r, StreamObserver<CommitKeyResponse> o) {
    calls.respond("CommitKey", o, () -> {
      grants.checkCommitted(r.getBlocksList(), r.getBlockTokensList(), AccessChecks.fromGateway());
      CommitKeyRequest owned;
      if (r.hasOpen()) {
        access.create(r.getVolume(), r.getBucket(), r.getOpen().getKey());
        owned = r.toBuilder().setOpen(r.getOpen().toBuilder().setOwner(access.owner(r.getOpen().getOwner()))
            .setEncryption(DataKeyBroker.asCallerMay(r.getOpen().getEncryption()))).build();
      } else {
        // Opened before: the path's bits were checked when it was opened; it must have been opened for the caller.
        ByteString row = seals.unseal(r.getOpenKey());
        OpenKeyRow opened = openKeyOf(row);
        access.keys(r.getVolume(), r.getBucket(), opened.getPath(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT);
        access.requireOpenedFor(opened.getOwner(), r.getVolume(), r.getBucket());
        owned = r.toBuilder().setOpenKey(row).build();
      }
      return CommitKeyResponse.newBuilder().setKey(namespace.commitKey(owned)).build();
    });
  }

  /**
   * The row of an open key a writer carried back (to AllocateBlock, CommitKey), once unsealed: it names the key and
   * the owner it was opened for. A commit whose key is opened with it gets the caller as its owner, or the one an
   * administrator names.
   */
  private static OpenKeyRow openKeyOf(ByteString openKey) throws OmException {
    try {
      return OpenKeyRow.parseFrom(openKey);
    } catch (InvalidProtocolBufferException e) {
      throw new OmException(OmResult.INVALID_REQUEST, "unreadable open key: " + e.getMessage());
    }
  }

  /** The key and, from SCM, where its containers' replicas are, nearest to the reader first. */
  @Override
  public void lookupKey(LookupKeyRequest r, StreamObserver<LookupKeyResponse> o) {
    calls.respondRead("LookupKey", o, () -> {
      boolean mayRead = access.mayReadKey(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId());
      LookupKeyResponse.Builder response = LookupKeyResponse.newBuilder();
      if (r.getWithBucket()) {
        Namespace.KeyInBucket found = namespace.lookupKeyInBucket(r);
        response.setKey(found.key()).setBucket(found.bucket());
      } else {
        response.setKey(namespace.lookupKey(r));
      }
      if (!mayRead) {
        response.setKey(response.getKey().toBuilder().clearBlocks());
        return response.build();
      }
      List<Long> containers = response.getKey().getBlocksList().stream().map(b -> b.getBlockId().getContainerId())
          .distinct().toList();
      if (!containers.isEmpty()) {
        response.addAllContainers(scm.containers(containers, r.getClientHost()));
      }
      grants.forReader(response);
      if (KeyEncryptions.keepsDataKey(response.getKey().getEncryption())) {
        response.setDataKey(ByteString.copyFrom(keyBroker.dataKey(response.getKey().getEncryption())));
      }
      return response.build();
    });
  }

  @Override
  public void listKeys(ListKeysRequest r, StreamObserver<ListKeysResponse> o) {
    calls.respondRead("ListKeys", o, () -> {
      access.listKeys(r.getVolume(), r.getBucket(), r.getPrefix());
      return namespace.listKeys(r.getVolume(), r.getBucket(), r.getPrefix(), r.getStartAfter(), r.getMaxResults());
    });
  }

  @Override
  public void deleteKey(DeleteKeyRequest r, StreamObserver<DeleteKeyResponse> o) {
    calls.respond("DeleteKey", o, () -> {
      access.delete(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId());
      return namespace.deleteKey(r.toBuilder().setOwner(access.owner(r.getOwner())).build());
    });
  }

  @Override
  public void renameKey(RenameKeyRequest r, StreamObserver<RenameKeyResponse> o) {
    calls.respond("RenameKey", o, () -> {
      access.delete(r.getVolume(), r.getBucket(), r.getKey(), "");
      access.create(r.getVolume(), r.getBucket(), r.getToKey());
      namespace.renameKey(r.getVolume(), r.getBucket(), r.getKey(), r.getToKey());
      return RenameKeyResponse.getDefaultInstance();
    });
  }

  @Override
  public void createDirectory(CreateDirectoryRequest r, StreamObserver<CreateDirectoryResponse> o) {
    calls.respond("CreateDirectory", o, () -> {
      access.create(r.getVolume(), r.getBucket(), r.getPath());
      return CreateDirectoryResponse.newBuilder().setDirectory(namespace.createDirectory(r.getVolume(), r.getBucket(),
          r.getPath(), access.owner(r.getOwner()))).build();
    });
  }

  @Override
  public void getFileStatus(GetFileStatusRequest r, StreamObserver<GetFileStatusResponse> o) {
    calls.respondRead("GetFileStatus", o, () -> {
      access.checkStatusReadable(r.getVolume(), r.getBucket(), r.getPath());
      return GetFileStatusResponse.newBuilder().setStatus(namespace.getFileStatus(r.getVolume(), r.getBucket(),
          r.getPath())).build();
    });
  }

  @Override
  public void setFileAttributes(SetFileAttributesRequest r, StreamObserver<SetFileAttributesResponse> o) {
    calls.respond("SetFileAttributes", o, () -> {
      access.setAttributes(r);
      return SetFileAttributesResponse.newBuilder().setStatus(namespace.setFileAttributes(r)).build();
    });
  }

  @Override
  public void listStatus(ListStatusRequest r, StreamObserver<ListStatusResponse> o) {
    calls.respondRead("ListStatus", o, () -> {
      access.list(r.getVolume(), r.getBucket(), r.getPath());
      return namespace.listStatus(r.getVolume(), r.getBucket(), r.getPath(), r.getStartAfter(), r.getMaxResults());
    });
  }

  @Override
  public void getS3Secret(GetS3SecretRequest r, StreamObserver<GetS3SecretResponse> o) {
    calls.respond("GetS3Secret", o, () -> {
      administrators.checkActsFor(r.getAccessId(), "read the S3 secret");
      return GetS3SecretResponse.newBuilder().setSecret(withRole(namespace.s3Secrets().get(r.getAccessId(),
          r.getCreateIfMissing()))).build();
    });
  }

  /** What proves the S3 user of the gateway's calls: the signatures of the requests it serves. */
  public static UserAuthenticator s3RequestAuthenticator(Namespace namespace, Clock clock) {
    return new S3RequestAuthenticator(namespace.s3Secrets()::signingSecret, clock);
  }

  @Override
  public void checkS3Signature(CheckS3SignatureRequest r, StreamObserver<CheckS3SignatureResponse> o) {
    calls.respond("CheckS3Signature", o, () -> S3SignatureCheck.check(r,
        namespace.s3Secrets().signingSecret(r.getAccessId())).setAdministrator(administrators.contains(
            r.getAccessId())).addAllIdentityPolicies(namespace.identities().policiesOf(r.getAccessId(),
            administrators.groupsOf(r.getAccessId()))).build());
  }

  /** The S3 identity service, served beside this one with the same administrators and leadership. */
  public S3IdentityRpc identityService() {
    return new S3IdentityRpc(namespace.identities(), administrators, calls);
  }

  @Override
  public void hasS3Secret(HasS3SecretRequest r, StreamObserver<HasS3SecretResponse> o) {
    calls.respond("HasS3Secret", o, () -> {
      try {
        namespace.s3Secrets().get(r.getAccessId(), false);
        return HasS3SecretResponse.newBuilder().setExists(true).build();
      } catch (OmException e) {
        if (e.result() != OmResult.S3_SECRET_NOT_FOUND) {
          throw e;
        }
        return HasS3SecretResponse.getDefaultInstance();
      }
    });
  }

  @Override
  public void getDelegationToken(GetDelegationTokenRequest r, StreamObserver<GetDelegationTokenResponse> o) {
    calls.respond("GetDelegationToken", o, () -> tokens.issue(Callers.current(), Callers.authentication(),
        r.getRenewer()));
  }

  @Override
  public void renewDelegationToken(RenewDelegationTokenRequest r, StreamObserver<RenewDelegationTokenResponse> o) {
    calls.respond("RenewDelegationToken", o, () -> RenewDelegationTokenResponse.newBuilder().setExpiryMs(
        tokens.renew(r.getToken(), Callers.current(), Callers.authentication())).build());
  }

  @Override
  public void cancelDelegationToken(CancelDelegationTokenRequest r,
      StreamObserver<CancelDelegationTokenResponse> o) {
    calls.respond("CancelDelegationToken", o, () -> {
      tokens.cancel(r.getToken(), Callers.current());
      return CancelDelegationTokenResponse.getDefaultInstance();
    });
  }

  @Override
  public void setS3Secret(SetS3SecretRequest r, StreamObserver<SetS3SecretResponse> o) {
    calls.respond("SetS3Secret", o, () -> {
      administrators.checkActsFor(r.getAccessId(), "set the S3 secret");
      return SetS3SecretResponse.newBuilder().setSecret(withRole(namespace.s3Secrets().set(r.getAccessId(),
          r.getSecret()))).build();
    });
  }

  private S3Secret withRole(S3Secret secret) {
    return secret.toBuilder().setAdministrator(administrators.contains(secret.getAccessId())).build();
  }

  @Override
  public void revokeS3Secret(RevokeS3SecretRequest r, StreamObserver<RevokeS3SecretResponse> o) {
    calls.respond("RevokeS3Secret", o, () -> {
      administrators.checkActsFor(r.getAccessId(), "revoke the S3 secret");
      namespace.s3Secrets().revoke(r.getAccessId());
      return RevokeS3SecretResponse.getDefaultInstance();
    });
  }

  @Override
  public void copyKey(CopyKeyRequest r, StreamObserver<CopyKeyResponse> o) {
    calls.respond("CopyKey", o, () -> {
      access.key(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId(), AclRight.RIGHT_READ,
          S3Actions.GET_OBJECT);
      access.create(r.getToVolume(), r.getToBucket(), r.getToKey());
      return CopyKeyResponse.newBuilder().setKey(namespace.copyKey(r.toBuilder().setOwner(access.owner(
          r.getOwner())).build())).build();
    });
  }

  @Override
  public void initiateMultipartUpload(InitiateMultipartUploadRequest r,
      StreamObserver<InitiateMultipartUploadResponse> o) {
    calls.respond("InitiateMultipartUpload", o, () -> {
      access.create(r.getVolume(), r.getBucket(), r.getKey());
      InitiateMultipartUploadRequest owned = r.toBuilder().setOwner(access.owner(r.getOwner())).build();
      return InitiateMultipartUploadResponse.newBuilder().setUploadId(keyBroker.open(r.getEncryption(),
          encryption -> namespace.initiateMultipartUpload(owned.toBuilder().setEncryption(encryption).build())))
          .build();
    });
  }

  @Override
  public void completeMultipartUpload(CompleteMultipartUploadRequest r,
      StreamObserver<CompleteMultipartUploadResponse> o) {
    calls.respond("CompleteMultipartUpload", o, () -> {
      access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT);
      return CompleteMultipartUploadResponse.newBuilder().setKey(namespace.completeMultipartUpload(r)).build();
    });
  }

  @Override
  public void abortMultipartUpload(AbortMultipartUploadRequest r, StreamObserver<AbortMultipartUploadResponse> o) {
    calls.respond("AbortMultipartUpload", o, () -> {
      access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_CREATE, S3Actions.ABORT_UPLOAD);
      namespace.abortMultipartUpload(r.getVolume(), r.getBucket(), r.getKey(), r.getUploadId());
      return AbortMultipartUploadResponse.getDefaultInstance();
    });
  }

  @Override
  public void listParts(ListPartsRequest r, StreamObserver<ListPartsResponse> o) {
    calls.respondRead("ListParts", o, () -> {
      access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_LIST, S3Actions.LIST_PARTS);
      return namespace.listParts(r);
    });
  }

  @Override
  public void listMultipartUploads(ListMultipartUploadsRequest r, StreamObserver<ListMultipartUploadsResponse> o) {
    calls.respondRead("ListMultipartUploads", o, () -> {
      access.keys(r.getVolume(), r.getBucket(), "", AclRight.RIGHT_LIST, S3Actions.LIST_UPLOADS);
      return namespace.listMultipartUploads(r);
    });
  }

  @Override
  public void copyPart(CopyPartRequest r, StreamObserver<CopyPartResponse> o) {
    calls.respond("CopyPart", o, () -> {
      access.key(r.getSourceVolume(), r.getSourceBucket(), r.getSourceKey(), r.getSourceVersionId(),
          AclRight.RIGHT_READ, S3Actions.GET_OBJECT);
      access.keys(r.getVolume(), r.getBucket(), r.getKey(), AclRight.RIGHT_CREATE, S3Actions.PUT_OBJECT);
      return CopyPartResponse.newBuilder().setPart(namespace.copyPart(r)).build();
    });
  }

  @Override
  public void setKeyTags(SetKeyTagsRequest r, StreamObserver<SetKeyTagsResponse> o) {
    calls.respond("SetKeyTags", o, () -> {
      // Removing every tag is S3's DeleteObjectTagging.
      access.key(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId(), AclRight.RIGHT_WRITE,
          r.getTagsCount() == 0 ? S3Actions.DELETE_OBJECT_TAGGING : S3Actions.PUT_OBJECT_TAGGING);
      return SetKeyTagsResponse.newBuilder().setKey(namespace.setKeyTags(r)).build();
    });
  }

  @Override
  public void setKeyAcl(SetKeyAclRequest r, StreamObserver<SetKeyAclResponse> o) {
    calls.respond("SetKeyAcl", o, () -> {
      access.key(r.getVolume(), r.getBucket(), r.getKey(), r.getVersionId(), AclRight.RIGHT_WRITE_ACL,
          S3Actions.PUT_OBJECT_ACL);
      return SetKeyAclResponse.newBuilder().setKey(namespace.setKeyAcl(r)).build();
    });
  }

  @Override
  public void setBucketProperties(SetBucketPropertiesRequest r, StreamObserver<SetBucketPropertiesResponse> o) {
    calls.respond("SetBucketProperties", o, () -> {
      for (String action : BucketPropertyActions.of(r)) {
        access.bucket(r.getVolume(), r.getName(), BucketPropertyActions.right(action), action);
      }
      keyBroker.requireFor(r.getEncryption());
      return SetBucketPropertiesResponse.newBuilder().setBucket(namespace.setBucketProperties(r)).build();
    });
  }

  @Override
  public void listKeyVersions(ListKeyVersionsRequest r, StreamObserver<ListKeyVersionsResponse> o) {
    calls.respondRead("ListKeyVersions", o, () -> {
      access.keys(r.getVolume(), r.getBucket(), "", AclRight.RIGHT_LIST, S3Actions.LIST_BUCKET_VERSIONS);
      return namespace.listKeyVersions(r);
    });
  }

  @Override
  public void getAcl(GetAclRequest r, StreamObserver<GetAclResponse> o) {
    calls.respondRead("GetAcl", o, () -> {
      Resource on = namespace.aclTarget(r.getObject());
      access.require(on, AclRight.RIGHT_READ_ACL, on.key() == null ? S3Actions.GET_BUCKET_ACL
          : S3Actions.GET_OBJECT_ACL);
      return GetAclResponse.newBuilder().setOwner(on.owner()).addAllAcls(
          r.getObject().getType() == AclObjectType.OBJECT_PREFIX ? on.prefixAcls() : on.acls()).build();
    });
  }

  @Override
  public void changeAcl(ChangeAclRequest r, StreamObserver<ChangeAclResponse> o) {
    calls.respond("ChangeAcl", o, () -> {
      Resource on = namespace.aclTarget(r.getObject());
      access.require(on, AclRight.RIGHT_WRITE_ACL, on.key() == null ? S3Actions.PUT_BUCKET_ACL
          : S3Actions.PUT_OBJECT_ACL);
      return ChangeAclResponse.newBuilder().addAllAcls(namespace.changeAcl(r.getObject(), r.getChange(),
          r.getAclsList())).build();
    });
  }

  @Override
  public void getOmRole(GetOmRoleRequest r, StreamObserver<GetOmRoleResponse> o) {
    OmCalls.respondInAnyRole("GetOmRole", o, leadership::role);
  }

  @Override
  public void transferOmLeadership(TransferOmLeadershipRequest r, StreamObserver<TransferOmLeadershipResponse> o) {
    OmCalls.respondInAnyRole("TransferOmLeadership", o, () -> {
      administrators.checkAdministrator("transfer the OMs' leadership");
      leadership.transferTo(r.getNodeId());
      return TransferOmLeadershipResponse.getDefaultInstance();
    });
  }
}
