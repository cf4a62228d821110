package org.tropos.client;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.CreatePipelineRequest;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.GetScmInfoResponse;
import org.tropos.proto.scm.ListDatanodesRequest;
import org.tropos.proto.scm.ListPipelinesRequest;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineRequest;
import org.tropos.proto.scm.ScmAdminServiceGrpc;

/** A client of SCM's admin service. Failures arrive as {@link ScmException} with SCM's result code. */
public final class ScmAdminClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

  private final HostPort address;
  private final ManagedChannel channel;

  public ScmAdminClient(HostPort address) {
    this.address = address;
    this.channel = NettyChannelBuilder.forAddress(address.host(), address.port()).usePlaintext().build();
  }

  public GetScmInfoResponse scmInfo() throws ScmException {
    return call(() -> stub().getScmInfo(GetScmInfoRequest.getDefaultInstance()));
  }

  /** Datanodes in {@code state}, or all with {@link NodeState#NODE_STATE_UNSPECIFIED}. */
  public List<DatanodeStatus> listDatanodes(NodeState state) throws ScmException {
    return call(() -> stub().listDatanodes(ListDatanodesRequest.newBuilder().setState(state).build())
        .getDatanodesList());
  }

  /** Pipelines in {@code state}, or all but CLOSED with {@link PipelineState#PIPELINE_STATE_UNSPECIFIED}. */
  public List<PipelineInfo> listPipelines(PipelineState state) throws ScmException {
    return call(() -> stub().listPipelines(ListPipelinesRequest.newBuilder().setState(state).build())
        .getPipelinesList());
  }

  public PipelineInfo createPipeline(ReplicationFactor factor) throws ScmException {
    return call(() -> stub().createPipeline(CreatePipelineRequest.newBuilder().setFactor(factor).build())
        .getPipeline());
  }

  public PipelineInfo closePipeline(UUID id) throws ScmException {
    return call(() -> stub().closePipeline(request(id)).getPipeline());
  }

  public PipelineInfo activatePipeline(UUID id) throws ScmException {
    return call(() -> stub().activatePipeline(request(id)).getPipeline());
  }

  public PipelineInfo deactivatePipeline(UUID id) throws ScmException {
    return call(() -> stub().deactivatePipeline(request(id)).getPipeline());
  }

  private static PipelineRequest request(UUID id) {
    return PipelineRequest.newBuilder().setId(PipelineId.newBuilder().setId(Uuids.toProto(id))).build();
  }

  private <T> T call(Supplier<T> rpc) throws ScmException {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw ScmException.fromRpc(e, address.toString());
    }
  }

  private ScmAdminServiceGrpc.ScmAdminServiceBlockingStub stub() {
    return ScmAdminServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_TIMEOUT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
