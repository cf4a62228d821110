package org.tropos.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.tropos.client.internal.OmClient;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.conf.ClientKeys;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.CheckS3SignatureResponse;
import org.tropos.proto.om.CompleteMultipartUploadRequest;
import org.tropos.proto.om.CopyKeyRequest;
import org.tropos.proto.om.CopyPartRequest;
import org.tropos.proto.om.DelegationToken;
import org.tropos.proto.om.DeleteKeyRequest;
import org.tropos.proto.om.DeleteKeyResponse;
import org.tropos.proto.om.GetAclResponse;
import org.tropos.proto.om.GetDelegationTokenResponse;
import org.tropos.proto.om.GetOmRoleResponse;
import org.tropos.proto.om.InitiateMultipartUploadRequest;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListKeyVersionsRequest;
import org.tropos.proto.om.ListKeyVersionsResponse;
import org.tropos.proto.om.ListKeysResponse;
import org.tropos.proto.om.ListMultipartUploadsRequest;
import org.tropos.proto.om.ListMultipartUploadsResponse;
import org.tropos.proto.om.ListPartsRequest;
import org.tropos.proto.om.ListPartsResponse;
import org.tropos.proto.om.ListStatusResponse;
import org.tropos.proto.om.LookupKeyRequest;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.NativeAcl;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.PartInfo;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.SetBucketPropertiesRequest;
import org.tropos.proto.om.SetFileAttributesRequest;
import org.tropos.proto.om.SetKeyAclRequest;
import org.tropos.proto.om.SetKeyTagsRequest;
import org.tropos.proto.om.VolumeInfo;

/**
 * The Java client of a Tropos cluster, in the style of Ozone's {@code ObjectStore}: volumes, buckets, and keys
 * written through a {@link KeyOutputStream} (visible only once closed, atomically) and read through a
 * {@link KeyInputStream} that verifies every byte. Metadata calls fail with {@link OmException}, which
 * carries the OM's result (KEY_NOT_FOUND, BUCKET_NOT_EMPTY, ...).
 *
 * <p>Thread-safe: share one per process; each stream belongs to one thread.
 */
public final class TroposClient implements AutoCloseable {
  private final Configuration conf;
  private final OmEndpoints oms;
  private final OmClient om;
  private final ScmBlockClient scm;
  private final PipelineClients pipelines;
  private final EcWrites ecWrites;
  private final KeyWrites writes;
  private final KeyReads reads;
  private final String clientHost;
  private final String user;
  private final TransportSecurity transport;

  private TroposClient(Configuration conf, String user, TransportSecurity transport) throws IOException {
    this.conf = conf;
    this.user = user;
    this.transport = transport;
    this.pipelines = new PipelineClients(conf, transport);
    this.oms = new OmEndpoints(conf, user, transport);
    this.om = oms.connect(conf.get(ClientKeys.FOLLOWER_READ_ENABLED));
    this.ecWrites = new EcWrites(transport);
    this.writes = new KeyWrites(conf, om, pipelines, ecWrites, SystemClock.INSTANCE);
    this.scm = new ScmBlockClient(ScmAddresses.blockServices(conf), transport);
    this.clientHost = InetAddress.getLocalHost().getHostAddress();
    this.reads = new KeyReads(scm, clientHost, transport, SystemClock.INSTANCE);
  }

  /**
   * Connects to the OM (ozone.om.address, or the OMs of ozone.om.service.ids) and SCM (for reports of corrupt
   * replicas) of {@code conf}.
   */
  public static TroposClient create(Configuration conf) throws IOException {
    return create(conf, Callers.localUser());
  }

  /**
   * The same, calling the OM as {@code user} rather than as this process's user (a service acting for its users;
   * the OM decides what that user may do).
   */
  public static TroposClient create(Configuration conf, String user) throws IOException {
    return new TroposClient(conf, user, SecuritySettings.userTransport(conf));
  }

  /** The same, the cluster reached as {@code transport} says (a daemon, with its own certificate). */
  public static TroposClient create(Configuration conf, String user, TransportSecurity transport)
      throws IOException {
    return new TroposClient(conf, user, transport);
  }

  public VolumeInfo createVolume(VolumeInfo volume) throws OmException {
    return om.createVolume(volume);
  }

  public VolumeInfo getVolume(String name) throws OmException {
    return om.getVolume(name);
  }

  /** Every volume whose name starts with {@code prefix}, all pages. */
  public List<VolumeInfo> listVolumes(String prefix) throws OmException {
    return WholeListings.volumes(om, prefix);
  }

  public void deleteVolume(String name) throws OmException {
    om.deleteVolume(name);
  }

  public BucketInfo createBucket(BucketInfo bucket) throws OmException {
    return om.createBucket(bucket);
  }

  public BucketInfo getBucket(String volume, String name) throws OmException {
    return om.getBucket(volume, name);
  }

  public List<BucketInfo> listBuckets(String volume, String prefix) throws OmException {
    return WholeListings.buckets(om, volume, prefix);
  }

  public void deleteBucket(String volume, String name) throws OmException {
    om.deleteBucket(volume, name);
  }

  /** Starts writing a key (missing parent directories are created); close the stream to commit it. */
  public KeyOutputStream createKey(String volume, String bucket, String key, long expectedSize)
      throws OmException {
    return createKey(OpenKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key)
        .setSize(expectedSize).setCreateParents(true).build());
  }

  /** Starts writing a key with every option of {@link OpenKeyRequest}. */
  public KeyOutputStream createKey(OpenKeyRequest request) throws OmException {
    return createKey(request, Long.MAX_VALUE);
  }

  /** The same, in blocks of at most {@code maxBlockSize} bytes (and the configured block size). */
  public KeyOutputStream createKey(OpenKeyRequest request, long maxBlockSize) throws OmException {
    return writes.open(request, maxBlockSize);
  }

  /**
   * Starts writing a key of exactly {@code request.getSize()} bytes. A small one (up to 1 MB, or empty) of a named
   * replication factor is written to a block leased ahead and opened only with its commit: one OM call instead of
   * two. Any other, a part of a multipart upload, or when no block can be leased, is opened first as
   * {@link #createKey(OpenKeyRequest)} opens it. A key asked to be encrypted is encrypted under a data key made
   * here. Either way, close the stream to commit it.
   */
  public KeyOutputStream createSmallKey(OpenKeyRequest request) throws OmException {
    return writes.openSmall(request);
  }

  /** The block size keys are written in (ozone.scm.block.size). */
  public long blockSize() {
    return conf.get(ScmKeys.BLOCK_SIZE).bytes();
  }

  public KeyInputStream readKey(String volume, String bucket, String key) throws OmException {
    return readKey(lookupKey(volume, bucket, key));
  }

  /**
   * The stored checksums (CRC32C pieces) covering one block of a looked-up key, from the nearest replica that
   * answers; no data moves. They cover the block's part of the key widened to whole pieces.
   */
  public ReadBlockResponse blockChecksums(LookupKeyResponse lookup, KeyBlock block) throws IOException {
    return reads.checksums(lookup, block);
  }

  /**
   * The stored checksums (CRC32C pieces) of each data index of an erasure-coded block group the looked-up key holds
   * whole, in unit order, each from the index's holder (an empty response for a unit holding none of the group); no
   * data moves. An index's pieces cover its cells back to back.
   */
  public List<ReadBlockResponse> dataIndexChecksums(LookupKeyResponse lookup, KeyBlock block) throws IOException {
    return reads.dataIndexChecksums(lookup, block);
  }

  /** Reads the key of an earlier {@link #lookupKey}: exactly that version. */
  public KeyInputStream readKey(LookupKeyResponse lookup) {
    return reads.read(lookup);
  }

  /** What the OM keeps to tell a customer's key (SSE-C) by, for a request that must name it without the key. */
  public static ByteString customerKeyCheck(byte[] customerKey) {
    return KeyEncryption.customerKeyCheck(customerKey);
  }

  /** Whether {@code customerKey} is the key {@code key} was encrypted with (SSE-C). */
  public static boolean isCustomerKeyOf(KeyInfo key, byte[] customerKey) {
    return KeyEncryption.isCustomerKeyOf(key, customerKey);
  }

  /**
   * Reads a key encrypted with a customer's key (SSE-C) that {@code lookup} found, with that key: check it first
   * ({@link #isCustomerKeyOf}), since another key fails only once the first bytes are read.
   */
  public KeyInputStream readKey(LookupKeyResponse lookup, byte[] customerKey) {
    return reads.read(lookup, customerKey);
  }

  /** The key with where its blocks' replicas are, nearest to this host first. */
  public LookupKeyResponse lookupKey(String volume, String bucket, String key) throws OmException {
    return om.lookupKey(volume, bucket, key, clientHost);
  }

  /** A version of a key, a delete marker or its parts as the request asks, with where its blocks' replicas are. */
  public LookupKeyResponse lookupKey(LookupKeyRequest request) throws OmException {
    return om.lookupKey(request.getClientHost().isEmpty() ? request.toBuilder().setClientHost(clientHost).build()
        : request);
  }

  public KeyInfo getKey(String volume, String bucket, String key) throws OmException {
    return om.lookupKey(volume, bucket, key, clientHost).getKey();
  }

  /** One page of every version of a bucket's keys, by key then newest first. */
  public ListKeyVersionsResponse listKeyVersions(ListKeyVersionsRequest request) throws OmException {
    return om.listKeyVersions(request);
  }

  /**
   * One page of a bucket's keys (an FSO bucket's files by full path) starting with {@code prefix}, after
   * {@code startAfter}, in byte order.
   */
  public ListKeysResponse listKeys(String volume, String bucket, String prefix, String startAfter, int max)
      throws OmException {
    return om.listKeys(volume, bucket, prefix, startAfter, max);
  }

  public void deleteKey(String volume, String bucket, String key, boolean recursive) throws OmException {
    om.deleteKey(DeleteKeyRequest.newBuilder().setVolume(volume).setBucket(bucket).setKey(key)
        .setRecursive(recursive).build());
  }

  /** Deletes a key, a version of it, or (a versioned bucket) adds a delete marker: what the request says. */
  public DeleteKeyResponse deleteKey(DeleteKeyRequest request) throws OmException {
    return om.deleteKey(request);
  }

  public void renameKey(String volume, String bucket, String from, String to) throws OmException {
    om.renameKey(volume, bucket, from, to);
  }

  public KeyInfo createDirectory(String volume, String bucket, String path) throws OmException {
    return om.createDirectory(volume, bucket, path);
  }

  public KeyInfo getFileStatus(String volume, String bucket, String path) throws OmException {
    return om.getFileStatus(volume, bucket, path);
  }

  /** One page of a directory's entries (FSO buckets), after {@code startAfter} (a name in that directory). */
  public ListStatusResponse listStatus(String volume, String bucket, String path, String startAfter, int max)
      throws OmException {
    return om.listStatus(volume, bucket, path, startAfter, max);
  }

  /** Copies a key on the server by referencing its blocks: no data moves, whatever the size. */
  public KeyInfo copyKey(CopyKeyRequest request) throws OmException {
    return om.copyKey(request);
  }

  /**
   * Starts a multipart upload; write each part with {@link #createKey(OpenKeyRequest)} naming the upload. An SSE-C
   * customer's key it names stays here (the OM gets a check of it).
   */
  public String initiateMultipartUpload(InitiateMultipartUploadRequest request) throws OmException {
    return om.initiateMultipartUpload(KeyEncryption.prepare(request));
  }

  public KeyInfo completeMultipartUpload(CompleteMultipartUploadRequest request) throws OmException {
    return om.completeMultipartUpload(request);
  }

  public void abortMultipartUpload(String volume, String bucket, String key, String uploadId) throws OmException {
    om.abortMultipartUpload(volume, bucket, key, uploadId);
  }

  /** Sets times, owner, group or permission of a file or directory (FSO); unset fields stay as they are. */
  public KeyInfo setFileAttributes(SetFileAttributesRequest request) throws OmException {
    return om.setFileAttributes(request);
  }

  /** Replaces a key's tags (kept in its metadata as "tag:name"). */
  public KeyInfo setKeyTags(SetKeyTagsRequest request) throws OmException {
    return om.setKeyTags(request);
  }

  public KeyInfo setKeyAcl(SetKeyAclRequest request) throws OmException {
    return om.setKeyAcl(request);
  }

  /** The owner and native ACL of a volume, bucket or key (READ_ACL on it). */
  public GetAclResponse getAcl(AclObject object) throws OmException {
    return om.getAcl(object);
  }

  /** Sets, adds to or removes from the native ACL of a volume, bucket or key (WRITE_ACL); returns the new ACL. */
  public List<NativeAcl> changeAcl(AclObject object, AclChange change, List<NativeAcl> acls) throws OmException {
    return om.changeAcl(object, change, acls);
  }

  /** Sets a bucket's versioning or canned ACL. */
  public BucketInfo setBucketProperties(SetBucketPropertiesRequest request) throws OmException {
    return om.setBucketProperties(request);
  }

  /** Makes a part of a byte range of another key by referencing its blocks (no data moves). */
  public PartInfo copyPart(CopyPartRequest request) throws OmException {
    return om.copyPart(request);
  }

  public ListPartsResponse listParts(ListPartsRequest request) throws OmException {
    return om.listParts(request);
  }

  public ListMultipartUploadsResponse listMultipartUploads(ListMultipartUploadsRequest request) throws OmException {
    return om.listMultipartUploads(request);
  }

  /** The S3 secret of {@code accessId} (a user name); with {@code createIfMissing}, a new one if it has none. */
  public S3Secret getS3Secret(String accessId, boolean createIfMissing) throws OmException {
    return om.getS3Secret(accessId, createIfMissing);
  }

  /**
   * The user the OM knows this client as: the one its certificate or Kerberos ticket proves in a secure cluster,
   * else the one it names.
   */
  public String user() {
    return transport.provenUser().orElse(user);
  }

  /**
   * Has the OM check an S3 request's signature against the access id's secret (an S3 gateway's call): the answer
   * says whether the user administers the OM and, for Signature V4, the key of the signature's scope.
   */
  public CheckS3SignatureResponse checkS3Signature(CheckS3SignatureRequest request) throws OmException {
    return om.checkS3Signature(request);
  }

  /** Whether {@code accessId} has S3 credentials (an S3 gateway's call). */
  public boolean hasS3Secret(String accessId) throws OmException {
    return om.hasS3Secret(accessId);
  }

  /** Whether this client reaches a secure cluster (over TLS). */
  public boolean secure() {
    return transport.tls();
  }

  /**
   * A delegation token of this client's user, which {@code renewer} (a user, or a principal such as
   * {@code yarn/host@REALM}) may renew: what a job hands its tasks. Only a user proven by Kerberos or a
   * certificate gets one.
   */
  public GetDelegationTokenResponse getDelegationToken(String renewer) throws OmException {
    return om.getDelegationToken(renewer);
  }

  /** Extends {@code token}, when this client's user is its renewer; returns its new expiry (epoch ms). */
  public long renewDelegationToken(DelegationToken token) throws OmException {
    return om.renewDelegationToken(token);
  }

  /** Ends {@code token}, when this client's user is its owner or renewer. */
  public void cancelDelegationToken(DelegationToken token) throws OmException {
    om.cancelDelegationToken(token);
  }

  /** S3 identity policies, users and groups (their changes: the OM's administrators only). */
  public S3Identities s3Identities() {
    return new S3IdentityClient(om);
  }

  public S3Secret setS3Secret(String accessId, String secret) throws OmException {
    return om.setS3Secret(accessId, secret);
  }

  public void revokeS3Secret(String accessId) throws OmException {
    om.revokeS3Secret(accessId);
  }

  /** The role of the OM this client calls now (an HA service's: whichever it reached last). */
  public GetOmRoleResponse omRole() throws OmException {
    return om.getOmRole();
  }

  /**
   * Every OM's node id and role (LEADER, FOLLOWER, ... or SINGLE) by address, asked of each in turn; an OM that
   * cannot be reached is left out and put in {@code unreachable}.
   */
  public Map<HostPort, GetOmRoleResponse> omRoles(Map<HostPort, OmException> unreachable) {
    return oms.roles(unreachable);
  }

  /** The OMs this client calls: the service's, in order, or the one OM. */
  public List<HostPort> omAddresses() {
    return oms.addresses();
  }

  /** Hands the OMs' leadership to OM {@code nodeId} (an administrator's call); returns once it leads. */
  public void transferOmLeadership(String nodeId) throws OmException {
    om.transferOmLeadership(nodeId);
  }

  @Override
  public void close() {
    reads.close();
    ecWrites.close();
    pipelines.close();
    scm.close();
    om.close();
  }
}
