package org.tropos.om.rpc;

import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.SecretKeyRing;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.UserAuthenticator;
import org.tropos.common.util.Clock;
import org.tropos.om.acl.Authorizer;
import org.tropos.om.kms.HadoopKms;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.scm.ScmBlocks;
import org.tropos.om.token.DelegationTokens;
import org.tropos.proto.om.AbortMultipartUploadRequest;
import org.tropos.proto.om.AbortMultipartUploadResponse;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.AllocateKeyBlockRequest;
import org.tropos.proto.om.AllocateKeyBlockResponse;
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

/**
 * The OM's client service: decodes each call and runs it, under {@link OmCalls} (leadership, live delegation token,
 * retry cache), with the class whose job it is: volumes here, {@link BucketCalls}, {@link KeyNamespaceCalls},
 * {@link KeyDataPath} for keys being written or read (which talks to SCM), {@link MultipartUploads},
 * {@link AclCalls} and {@link CredentialCalls}. Splitting them keeps each job's checks together and readable.
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
  private final Administrators administrators;
  private final OmCalls calls;
  private final Leadership leadership;
  private final AccessChecks access;
  private final BucketCalls buckets;
  private final KeyNamespaceCalls keyNames;
  private final KeyDataPath keys;
  private final MultipartUploads uploads;
  private final AclCalls acls;
  private final CredentialCalls credentials;

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
    DataKeyBroker keyBroker = new DataKeyBroker(kms, namespace.dataKeys());
    this.calls = new OmCalls(leadership, delegationTokens);
    this.leadership = leadership;
    this.namespace = namespace;
    this.administrators = administrators;
    this.access = new AccessChecks(access.authorizer(), access.enabled(), administrators, access.s3Volume(),
        namespace);
    this.buckets = new BucketCalls(namespace, this.access, keyBroker);
    this.keyNames = new KeyNamespaceCalls(namespace, this.access);
    this.keys = new KeyDataPath(namespace, scm, blockSize, this.access, new BlockGrants(tokens),
        new OpenKeySeals(secretKeys), keyBroker);
    this.uploads = new MultipartUploads(namespace, this.access, keyBroker);
    this.acls = new AclCalls(namespace, this.access);
    this.credentials = new CredentialCalls(namespace, administrators, delegationTokens);
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
    calls.respond("CreateBucket", o, () -> buckets.create(r));
  }

  @Override
  public void getBucket(GetBucketRequest r, StreamObserver<GetBucketResponse> o) {
    calls.respondRead("GetBucket", o, () -> buckets.get(r));
  }

  @Override
  public void listBuckets(ListBucketsRequest r, StreamObserver<ListBucketsResponse> o) {
    calls.respondRead("ListBuckets", o, () -> buckets.list(r));
  }

  @Override
  public void deleteBucket(DeleteBucketRequest r, StreamObserver<DeleteBucketResponse> o) {
    calls.respond("DeleteBucket", o, () -> buckets.delete(r));
  }

  @Override
  public void openKey(OpenKeyRequest r, StreamObserver<OpenKeyResponse> o) {
    calls.respond("OpenKey", o, () -> keys.openKey(r));
  }

  @Override
  public void allocateBlock(AllocateKeyBlockRequest r, StreamObserver<AllocateKeyBlockResponse> o) {
    calls.respond("AllocateBlock", o, () -> keys.allocateBlock(r));
  }

  @Override
  public void leaseBlocks(LeaseBlocksRequest r, StreamObserver<LeaseBlocksResponse> o) {
    calls.respond("LeaseBlocks", o, () -> keys.leaseBlocks(r));
  }

  @Override
  public void commitKey(CommitKeyRequest r, StreamObserver<CommitKeyResponse> o) {
    calls.respond("CommitKey", o, () -> keys.commitKey(r));
  }

  @Override
  public void lookupKey(LookupKeyRequest r, StreamObserver<LookupKeyResponse> o) {
    calls.respondRead("LookupKey", o, () -> keys.lookupKey(r));
  }

  @Override
  public void listKeys(ListKeysRequest r, StreamObserver<ListKeysResponse> o) {
    calls.respondRead("ListKeys", o, () -> keyNames.listKeys(r));
  }

  @Override
  public void deleteKey(DeleteKeyRequest r, StreamObserver<DeleteKeyResponse> o) {
    calls.respond("DeleteKey", o, () -> keyNames.deleteKey(r));
  }

  @Override
  public void renameKey(RenameKeyRequest r, StreamObserver<RenameKeyResponse> o) {
    calls.respond("RenameKey", o, () -> keyNames.renameKey(r));
  }

  @Override
  public void createDirectory(CreateDirectoryRequest r, StreamObserver<CreateDirectoryResponse> o) {
    calls.respond("CreateDirectory", o, () -> keyNames.createDirectory(r));
  }

  @Override
  public void getFileStatus(GetFileStatusRequest r, StreamObserver<GetFileStatusResponse> o) {
    calls.respondRead("GetFileStatus", o, () -> keyNames.getFileStatus(r));
  }

  @Override
  public void setFileAttributes(SetFileAttributesRequest r, StreamObserver<SetFileAttributesResponse> o) {
    calls.respond("SetFileAttributes", o, () -> keyNames.setFileAttributes(r));
  }

  @Override
  public void listStatus(ListStatusRequest r, StreamObserver<ListStatusResponse> o) {
    calls.respondRead("ListStatus", o, () -> keyNames.listStatus(r));
  }

  @Override
  public void getS3Secret(GetS3SecretRequest r, StreamObserver<GetS3SecretResponse> o) {
    calls.respond("GetS3Secret", o, () -> credentials.getS3Secret(r));
  }

  /** What proves the S3 user of the gateway's calls: the signatures of the requests it serves. */
  public static UserAuthenticator s3RequestAuthenticator(Namespace namespace, Clock clock) {
    return new S3RequestAuthenticator(namespace.s3Secrets()::signingSecret, clock);
  }

  @Override
  public void checkS3Signature(CheckS3SignatureRequest r, StreamObserver<CheckS3SignatureResponse> o) {
    calls.respond("CheckS3Signature", o, () -> credentials.checkS3Signature(r));
  }

  /** The S3 identity service, served beside this one with the same administrators and leadership. */
  public S3IdentityRpc identityService() {
    return new S3IdentityRpc(namespace.identities(), administrators, calls);
  }

  @Override
  public void hasS3Secret(HasS3SecretRequest r, StreamObserver<HasS3SecretResponse> o) {
    calls.respond("HasS3Secret", o, () -> credentials.hasS3Secret(r));
  }

  @Override
  public void getDelegationToken(GetDelegationTokenRequest r, StreamObserver<GetDelegationTokenResponse> o) {
    calls.respond("GetDelegationToken", o, () -> credentials.getDelegationToken(r));
  }

  @Override
  public void renewDelegationToken(RenewDelegationTokenRequest r, StreamObserver<RenewDelegationTokenResponse> o) {
    calls.respond("RenewDelegationToken", o, () -> credentials.renewDelegationToken(r));
  }

  @Override
  public void cancelDelegationToken(CancelDelegationTokenRequest r, StreamObserver<CancelDelegationTokenResponse> o) {
    calls.respond("CancelDelegationToken", o, () -> credentials.cancelDelegationToken(r));
  }

  @Override
  public void setS3Secret(SetS3SecretRequest r, StreamObserver<SetS3SecretResponse> o) {
    calls.respond("SetS3Secret", o, () -> credentials.setS3Secret(r));
  }

  @Override
  public void revokeS3Secret(RevokeS3SecretRequest r, StreamObserver<RevokeS3SecretResponse> o) {
    calls.respond("RevokeS3Secret", o, () -> credentials.revokeS3Secret(r));
  }

  @Override
  public void copyKey(CopyKeyRequest r, StreamObserver<CopyKeyResponse> o) {
    calls.respond("CopyKey", o, () -> keyNames.copyKey(r));
  }

  @Override
  public void initiateMultipartUpload(InitiateMultipartUploadRequest r,
      StreamObserver<InitiateMultipartUploadResponse> o) {
    calls.respond("InitiateMultipartUpload", o, () -> uploads.initiate(r));
  }

  @Override
  public void completeMultipartUpload(CompleteMultipartUploadRequest r,
      StreamObserver<CompleteMultipartUploadResponse> o) {
    calls.respond("CompleteMultipartUpload", o, () -> uploads.complete(r));
  }

  @Override
  public void abortMultipartUpload(AbortMultipartUploadRequest r, StreamObserver<AbortMultipartUploadResponse> o) {
    calls.respond("AbortMultipartUpload", o, () -> uploads.abort(r));
  }

  @Override
  public void listParts(ListPartsRequest r, StreamObserver<ListPartsResponse> o) {
    calls.respondRead("ListParts", o, () -> uploads.listParts(r));
  }

  @Override
  public void listMultipartUploads(ListMultipartUploadsRequest r, StreamObserver<ListMultipartUploadsResponse> o) {
    calls.respondRead("ListMultipartUploads", o, () -> uploads.list(r));
  }

  @Override
  public void copyPart(CopyPartRequest r, StreamObserver<CopyPartResponse> o) {
    calls.respond("CopyPart", o, () -> uploads.copyPart(r));
  }

  @Override
  public void setKeyTags(SetKeyTagsRequest r, StreamObserver<SetKeyTagsResponse> o) {
    calls.respond("SetKeyTags", o, () -> keyNames.setKeyTags(r));
  }

  @Override
  public void setKeyAcl(SetKeyAclRequest r, StreamObserver<SetKeyAclResponse> o) {
    calls.respond("SetKeyAcl", o, () -> acls.setKeyAcl(r));
  }

  @Override
  public void setBucketProperties(SetBucketPropertiesRequest r, StreamObserver<SetBucketPropertiesResponse> o) {
    calls.respond("SetBucketProperties", o, () -> buckets.setProperties(r));
  }

  @Override
  public void listKeyVersions(ListKeyVersionsRequest r, StreamObserver<ListKeyVersionsResponse> o) {
    calls.respondRead("ListKeyVersions", o, () -> keyNames.listKeyVersions(r));
  }

  @Override
  public void getAcl(GetAclRequest r, StreamObserver<GetAclResponse> o) {
    calls.respondRead("GetAcl", o, () -> acls.get(r));
  }

  @Override
  public void changeAcl(ChangeAclRequest r, StreamObserver<ChangeAclResponse> o) {
    calls.respond("ChangeAcl", o, () -> acls.change(r));
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
