package org.tropos.client.internal;

import io.grpc.ManagedChannel;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.AbortMultipartUploadRequest;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AllocateKeyBlockRequest;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CancelDelegationTokenRequest;
import org.tropos.proto.om.ChangeAclRequest;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.CheckS3SignatureResponse;
import org.tropos.proto.om.CommitKeyRequest;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.CreateBucketRequest;
import org.tropos.proto.om.CreateDirectoryRequest;
import org.tropos.proto.om.CreateVolumeRequest;
import org.tropos.proto.om.DelegationToken;
import org.tropos.proto.om.DeleteBucketRequest;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.DeleteVolumeRequest;
import org.tropos.proto.om.GetAclRequest;
import org.tropos.proto.om.GetAclResponse;
import org.tropos.proto.om.GetBucketRequest;
import org.tropos.proto.om.GetDelegationTokenRequest;
import org.tropos.proto.om.GetDelegationTokenResponse;
import org.tropos.proto.om.GetFileStatusRequest;
import org.tropos.proto.om.GetOmRoleRequest;
import org.tropos.proto.om.GetOmRoleResponse;
import org.tropos.proto.om.GetS3SecretRequest;
import org.tropos.proto.om.GetVolumeRequest;
import org.tropos.proto.om.HasS3SecretRequest;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LeaseBlocksRequest;
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
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.RenameKeyRequest;
import org.tropos.proto.om.RenewDelegationTokenRequest;
import org.tropos.proto.om.RevokeS3SecretRequest;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.proto.om.SetS3SecretRequest;
import org.tropos.proto.om.TransferOmLeadershipRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * The OM's client service, call by call: one OM, or the OMs of an HA service, following the leader
 * ({@link OmFailover}). Failures arrive as {@link OmException}. Thread-safe.
 */
public final class OmClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);
  /** How long a call follows the OMs of a service through a failover before it fails. */
  private static final Duration FAILOVER_BUDGET = Duration.ofSeconds(30);

  private final OmFailover om;

  /** A client calling the OM at {@code address} as {@code user}. */
  public OmClient(HostPort address, String user) {
    this(List.of(address), user);
  }

  /** A client calling the OMs at {@code addresses} (an HA service's, in order) as {@code user}. */
  public OmClient(List<HostPort> addresses, String user) {
    this(addresses, user, false, TransportSecurity.plaintext());
  }

  /**
   * The same, read calls sent to the OMs in turn when {@code followerReads} (the OMs must serve them), the OMs
   * reached as {@code transport} says.
   */
  public OmClient(List<HostPort> addresses, String user, boolean followerReads, TransportSecurity transport) {
    this.om = new OmFailover(addresses, CALL_TIMEOUT, user, SystemClock.INSTANCE, FAILOVER_BUDGET, followerReads,
        transport);
  }

  private OmServiceGrpc.OmServiceBlockingStub stub() {
    return om.stub(OmServiceGrpc::newBlockingStub);
  }

  public VolumeInfo createVolume(VolumeInfo volume) throws OmException {
    return om.call(() -> stub().createVolume(CreateVolumeRequest.newBuilder().setVolume(volume).build()).getVolume());
  }

  public VolumeInfo getVolume(String name) throws OmException {
    return om.read(() -> stub().getVolume(GetVolumeRequest.newBuilder().setName(name).build()).getVolume());
  }

  public ListVolumesResponse listVolumes(String prefix, String startAfter, int max) throws OmException {
    return om.read(() -> stub().listVolumes(ListVolumesRequest.newBuilder().setPrefix(prefix)
        .setStartAfter(startAfter).setMaxResults(max).build()));
  }

  public void deleteVolume(String name) throws OmException {
    om.call(() -> stub().deleteVolume(DeleteVolumeRequest.newBuilder().setName(name).build()));
  }

  public BucketInfo createBucket(BucketInfo bucket) throws OmException {
    return om.call(() -> stub().createBucket(CreateBucketRequest.newBuilder().setBucket(bucket).build()).getBucket());
  }

  public BucketInfo getBucket(String volume, String name) throws OmException {
    return om.read(() -> stub().getBucket(GetBucketRequest.newBuilder().setVolume(volume).setName(name).build())
        .getBucket());
  }

  public ListBucketsResponse listBuckets(String volume, String prefix, String startAfter, int max)
      throws OmException {
    return om.read(() -> stub().listBuckets(ListBucketsRequest.newBuilder().setVolume(volume).setPrefix(prefix)
        .setStartAfter(startAfter).setMaxResults(max).build()));
  }

  public void deleteBucket(String volume, String name) throws OmException {
    om.call(() -> stub().deleteBucket(DeleteBucketRequest.newBuilder().setVolume(volume).setName(name).build()));
  }

  public OpenKeyResponse openKey(OpenKeyRequest request) throws OmException {
    return om.call(() -> stub().openKey(request));
  }

  /** A block for a key being written; {@code open} is what OpenKey returned. */
  public AllocateBlockResponse allocateBlock(String volume, String bucket, OpenKeyResponse open, long size,
      ExcludeList exclude) throws OmException {
    return om.call(() -> stub().allocateBlock(AllocateKeyBlockRequest.newBuilder().setVolume(volume)
        .setBucket(bucket).setOpenId(open.getOpenId()).setOpenKey(open.getOpenKey()).setSize(size)
        .setExclude(exclude).build()).getBlock());
  }

  /** Blocks for small keys of at most {@code size} bytes that this writer opens with their commit. */
  public List<AllocateBlockResponse> leaseBlocks(ReplicationFactor factor, long size, int count)
      throws OmException {
    return om.call(() -> stub().leaseBlocks(LeaseBlocksRequest.newBuilder().setFactor(factor).setSize(size)
        .setCount(count).build()).getBlocksList());
  }

  /**
   * Opens a key as {@code open} says and commits it, in one call: a key written to leased blocks. {@code tokens}: the
   * WRITE token each block was leased with (empty ones when the cluster is not secure).
   */
  public KeyInfo createKey(OpenKeyRequest open, long size, List<KeyBlock> blocks, List<BlockToken> tokens,
      Map<String, String> metadata) throws OmException {
    return om.call(() -> stub().commitKey(CommitKeyRequest.newBuilder().setVolume(open.getVolume())
        .setBucket(open.getBucket()).setOpen(open).setSize(size).addAllBlocks(blocks).addAllBlockTokens(tokens)
        .putAllMetadata(metadata).build()).getKey());
  }

  /**
   * Commits an open key; {@code tokens} as for {@link #createKey}, {@code recommit} when this writer committed it
   * before (an hsync).
   */
  public KeyInfo commitKey(String volume, String bucket, OpenKeyResponse open, long size, List<KeyBlock> blocks,
      List<BlockToken> tokens, Map<String, String> metadata, boolean recommit) throws OmException {
    return om.call(() -> stub().commitKey(CommitKeyRequest.newBuilder().setVolume(volume).setBucket(bucket)
        .setOpenId(open.getOpenId()).setOpenKey(open.getOpenKey()).setSize(size).addAllBlocks(blocks)
        .addAllBlockTokens(tokens).putAllMetadata(metadata).setRecommit(recommit).build()).getKey());
  }

  public LookupKeyResponse lookupKey(String volume, String bucket, String key, String clientHost)
      throws OmException {
    return lookupKey(LookupKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key)
        .setClientHost(clientHost).build());
  }

  public LookupKeyResponse lookupKey(LookupKeyRequest request) throws OmException {
    return om.read(() -> stub().lookupKey(request));
  }

  public ListKeyVersionsResponse listKeyVersions(ListKeyVersionsRequest request) throws OmException {
    return om.read(() -> stub().listKeyVersions(request));
  }

  public ListKeysResponse listKeys(String volume, String bucket, String prefix, String startAfter, int max)
      throws OmException {
    return om.read(() -> stub().listKeys(ListKeysRequest.newBuilder().setVolume(volume).setBucket(bucket)
        .setPrefix(prefix).setStartAfter(startAfter).setMaxResults(max).build()));
  }

  public DeleteKeyResponse deleteKey(DeleteKeyRequest request) throws OmException {
    return om.call(() -> stub().deleteKey(request));
  }

  public void renameKey(String volume, String bucket, String from, String to) throws OmException {
    om.call(() -> stub().renameKey(RenameKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(from)
        .setToKey(to).build()));
  }

  public KeyInfo createDirectory(String volume, String bucket, String path) throws OmException {
    return om.call(() -> stub().createDirectory(CreateDirectoryRequest.newBuilder().setVolume(volume)
        .setBucket(bucket).setPath(path).build()).getDirectory());
  }

  public KeyInfo getFileStatus(String volume, String bucket, String path) throws OmException {
    return om.read(() -> stub().getFileStatus(GetFileStatusRequest.newBuilder().setVolume(volume).setBucket(bucket)
        .setPath(path).build()).getStatus());
  }

  public ListStatusResponse listStatus(String volume, String bucket, String path, String startAfter, int max)
      throws OmException {
    return om.read(() -> stub().listStatus(ListStatusRequest.newBuilder().setVolume(volume).setBucket(bucket)
        .setPath(path).setStartAfter(startAfter).setMaxResults(max).build()));
  }

  public KeyInfo copyKey(CopyKeyRequest request) throws OmException {
    return om.call(() -> stub().copyKey(request).getKey());
  }

  public String initiateMultipartUpload(InitiateMultipartUploadRequest request) throws OmException {
    return om.call(() -> stub().initiateMultipartUpload(request).getUploadId());
  }

  public KeyInfo completeMultipartUpload(CompleteMultipartUploadRequest request) throws OmException {
    return om.call(() -> stub().completeMultipartUpload(request).getKey());
  }

  public void abortMultipartUpload(String volume, String bucket, String key, String uploadId) throws OmException {
    om.call(() -> stub().abortMultipartUpload(AbortMultipartUploadRequest.newBuilder().setVolume(volume)
        .setBucket(bucket).setKey(key).setUploadId(uploadId).build()));
  }

  public KeyInfo setKeyTags(SetKeyTagsRequest request) throws OmException {
    return om.call(() -> stub().setKeyTags(request).getKey());
  }

  public KeyInfo setKeyAcl(SetKeyAclRequest request) throws OmException {
    return om.call(() -> stub().setKeyAcl(request).getKey());
  }

  public GetAclResponse getAcl(AclObject object) throws OmException {
    return om.call(() -> stub().getAcl(GetAclRequest.newBuilder().setObject(object).build()));
  }

  public List<NativeAcl> changeAcl(AclObject object, AclChange change, List<NativeAcl> acls) throws OmException {
    return om.call(() -> stub().changeAcl(ChangeAclRequest.newBuilder().setObject(object).setChange(change)
        .addAllAcls(acls).build()).getAclsList());
  }

  public BucketInfo setBucketProperties(SetBucketPropertiesRequest request) throws OmException {
    return om.call(() -> stub().setBucketProperties(request).getBucket());
  }

  public KeyInfo setFileAttributes(SetFileAttributesRequest request) throws OmException {
    return om.call(() -> stub().setFileAttributes(request).getStatus());
  }

  public PartInfo copyPart(CopyPartRequest request) throws OmException {
    return om.call(() -> stub().copyPart(request).getPart());
  }

  public ListPartsResponse listParts(ListPartsRequest request) throws OmException {
    return om.read(() -> stub().listParts(request));
  }

  public ListMultipartUploadsResponse listMultipartUploads(ListMultipartUploadsRequest request) throws OmException {
    return om.read(() -> stub().listMultipartUploads(request));
  }

  /**
   * Runs a call of another of the OM's services through the same OMs and failover: {@code rpc} gets a stub of the
   * OM each attempt tries. For callers that implement the public API over such a service (the S3 identities).
   */
  public <S extends AbstractStub<S>, T> T call(Function<ManagedChannel, S> newStub, Function<S, T> rpc)
      throws OmException {
    return om.call(() -> rpc.apply(om.stub(newStub)));
  }

  /** The same for a call that only reads: with follower reads any OM may answer it. */
  public <S extends AbstractStub<S>, T> T read(Function<ManagedChannel, S> newStub, Function<S, T> rpc)
      throws OmException {
    return om.read(() -> rpc.apply(om.stub(newStub)));
  }

  public S3Secret getS3Secret(String accessId, boolean createIfMissing) throws OmException {
    return om.call(() -> stub().getS3Secret(GetS3SecretRequest.newBuilder().setAccessId(accessId)
        .setCreateIfMissing(createIfMissing).build()).getSecret());
  }

  public CheckS3SignatureResponse checkS3Signature(CheckS3SignatureRequest request) throws OmException {
    return om.call(() -> stub().checkS3Signature(request));
  }

  public boolean hasS3Secret(String accessId) throws OmException {
    return om.call(() -> stub().hasS3Secret(HasS3SecretRequest.newBuilder().setAccessId(accessId).build())
        .getExists());
  }

  public GetDelegationTokenResponse getDelegationToken(String renewer) throws OmException {
    return om.call(() -> stub().getDelegationToken(GetDelegationTokenRequest.newBuilder().setRenewer(renewer)
        .build()));
  }

  public long renewDelegationToken(DelegationToken token) throws OmException {
    return om.call(() -> stub().renewDelegationToken(RenewDelegationTokenRequest.newBuilder().setToken(token)
        .build()).getExpiryMs());
  }

  public void cancelDelegationToken(DelegationToken token) throws OmException {
    om.call(() -> stub().cancelDelegationToken(CancelDelegationTokenRequest.newBuilder().setToken(token).build()));
  }

  public S3Secret setS3Secret(String accessId, String secret) throws OmException {
    return om.call(() -> stub().setS3Secret(SetS3SecretRequest.newBuilder().setAccessId(accessId).setSecret(secret)
        .build()).getSecret());
  }

  public void revokeS3Secret(String accessId) throws OmException {
    om.call(() -> stub().revokeS3Secret(RevokeS3SecretRequest.newBuilder().setAccessId(accessId).build()));
  }

  /** The role of the OM this client calls (with one address: that OM, whatever its role). */
  public GetOmRoleResponse getOmRole() throws OmException {
    return om.call(() -> stub().getOmRole(GetOmRoleRequest.getDefaultInstance()));
  }

  public void transferOmLeadership(String nodeId) throws OmException {
    om.call(() -> stub().transferOmLeadership(TransferOmLeadershipRequest.newBuilder().setNodeId(nodeId).build()));
  }

  @Override
  public void close() {
    om.close();
  }
}
