package org.tropos.common.rpc;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.AllocateBlocksRequest;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.DeleteKeyBlocksRequest;
import org.tropos.proto.scm.DeleteKeyBlocksResponse;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.KeyBlocksResult;
import org.tropos.proto.scm.ReportBadReplicaRequest;
import org.tropos.proto.scm.ScmBlockServiceGrpc;

/** A client of SCM's block service. Failures arrive as {@link ScmException}. */
public final class ScmBlockClient implements AutoCloseable {
  private final ScmChannel scm;
  private final TransportSecurity security;

  public ScmBlockClient(HostPort address) {
    this(List.of(address), TransportSecurity.plaintext());
  }

  /**
   * @param addresses the block service of each SCM of an HA service: calls follow the leader
   * @param security how this process reaches SCM
   */
  public ScmBlockClient(List<HostPort> addresses, TransportSecurity security) {
    this.scm = new ScmChannel(addresses, security);
    this.security = security;
  }

  /** How this process reaches the cluster, for the other connections it makes beside this one. */
  public TransportSecurity security() {
    return security;
  }

  public AllocateBlockResponse allocateBlock(long size, ReplicationFactor factor, ExcludeList exclude)
      throws ScmException {
    return scm.call(() -> stub().allocateBlock(AllocateBlockRequest.newBuilder().setSize(size).setFactor(factor)
        .setExclude(exclude).build()));
  }

  /** A new erasure-coded block group of {@code size} bytes of data, its datanodes in replica-index order. */
  public AllocateBlockResponse allocateEcBlock(long size, EcReplication config, ExcludeList exclude)
      throws ScmException {
    return scm.call(() -> stub().allocateBlock(AllocateBlockRequest.newBuilder().setSize(size)
        .setEc(config.toProto()).setExclude(exclude).build()));
  }

  /** Up to {@code count} blocks of {@code size} bytes each (fewer when SCM could not allocate them all). */
  public List<AllocateBlockResponse> allocateBlocks(int count, long size, ReplicationFactor factor,
      ExcludeList exclude) throws ScmException {
    return scm.call(() -> stub().allocateBlocks(AllocateBlocksRequest.newBuilder().setCount(count)
        .setEach(AllocateBlockRequest.newBuilder().setSize(size).setFactor(factor).setExclude(exclude)).build())
        .getBlocksList());
  }

  public List<ContainerInfo> containers(List<Long> ids, String clientHost) throws ScmException {
    return scm.call(() -> stub().getContainers(GetContainersRequest.newBuilder().addAllContainerIds(ids)
        .setClientHost(clientHost).build()).getContainersList());
  }

  public void reportBadReplica(BlockId block, UUID datanode, String reason) throws ScmException {
    scm.call(() -> stub().reportBadReplica(ReportBadReplicaRequest.newBuilder().setBlockId(block)
        .setDatanode(Uuids.toProto(datanode)).setReason(reason).build()));
  }

  /**
   * Hands SCM the blocks of deleted keys, for OM once nothing references them. Returns the ids of the keys SCM has
   * durably recorded: their blocks will be deleted on the datanodes in the background and the caller may forget
   * them. A key not returned must be sent again later. Sending a key again is harmless. Fails with
   * INVALID_REQUEST for a malformed request (a key without id, a block without container or local id) and with
   * INTERNAL_ERROR or SCM_NOT_READY when nothing was recorded.
   */
  public Set<String> deleteKeyBlocks(List<KeyBlocks> keys) throws ScmException {
    DeleteKeyBlocksResponse response = scm.call(() -> stub().deleteKeyBlocks(DeleteKeyBlocksRequest.newBuilder()
        .addAllKeys(keys).build()));
    Set<String> accepted = new LinkedHashSet<>();
    for (KeyBlocksResult result : response.getResultsList()) {
      if (result.getAccepted()) {
        accepted.add(result.getKeyId());
      }
    }
    return Collections.unmodifiableSet(accepted);
  }

  private ScmBlockServiceGrpc.ScmBlockServiceBlockingStub stub() {
    return scm.stub(ScmBlockServiceGrpc::newBlockingStub);
  }

  @Override
  public void close() {
    scm.close();
  }
}
