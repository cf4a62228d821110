package org.tropos.client.internal;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.ReportBadReplicaRequest;
import org.tropos.proto.scm.ScmBlockServiceGrpc;

/** A client of SCM's block service. Failures arrive as {@link ScmException}. */
public final class ScmBlockClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

  private final HostPort address;
  private final ManagedChannel channel;

  public ScmBlockClient(HostPort address) {
    this.address = address;
    this.channel = NettyChannelBuilder.forAddress(address.host(), address.port()).usePlaintext().build();
  }

  public AllocateBlockResponse allocateBlock(long size, ReplicationFactor factor, ExcludeList exclude)
      throws ScmException {
    return call(() -> stub().allocateBlock(AllocateBlockRequest.newBuilder().setSize(size).setFactor(factor)
        .setExclude(exclude).build()));
  }

  public List<ContainerInfo> containers(List<Long> ids, String clientHost) throws ScmException {
    return call(() -> stub().getContainers(GetContainersRequest.newBuilder().addAllContainerIds(ids)
        .setClientHost(clientHost).build()).getContainersList());
  }

  public void reportBadReplica(BlockId block, UUID datanode, String reason) throws ScmException {
    call(() -> stub().reportBadReplica(ReportBadReplicaRequest.newBuilder().setBlockId(block)
        .setDatanode(Uuids.toProto(datanode)).setReason(reason).build()));
  }

  private <T> T call(Supplier<T> rpc) throws ScmException {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw ScmException.fromRpc(e, address.toString());
    }
  }

  private ScmBlockServiceGrpc.ScmBlockServiceBlockingStub stub() {
    return ScmBlockServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_TIMEOUT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
