package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockRequest;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.GetContainersRequest;
import org.tropos.proto.scm.GetContainersResponse;
import org.tropos.proto.scm.ReportBadReplicaRequest;
import org.tropos.proto.scm.ReportBadReplicaResponse;
import org.tropos.proto.scm.ScmBlockServiceGrpc;
import org.tropos.scm.container.ContainerManager;

/** SCM's block service: block allocation, container locations, bad-replica reports. */
public final class ScmBlockRpc extends ScmBlockServiceGrpc.ScmBlockServiceImplBase {
  private final ContainerManager containers;

  public ScmBlockRpc(ContainerManager containers) {
    this.containers = containers;
  }

  @Override
  public void allocateBlock(AllocateBlockRequest request, StreamObserver<AllocateBlockResponse> observer) {
    ScmCalls.respond("AllocateBlock", observer, () -> {
      ReplicationFactor factor = request.getFactor() == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED
          ? ReplicationFactor.THREE : request.getFactor();
      ContainerManager.Allocation a = containers.allocateBlock(request.getSize(), factor, request.getExclude());
      return AllocateBlockResponse.newBuilder().setBlockId(a.block()).setPipeline(ScmAdminRpc.toInfo(a.pipeline()))
          .build();
    });
  }

  @Override
  public void getContainers(GetContainersRequest request, StreamObserver<GetContainersResponse> observer) {
    ScmCalls.respond("GetContainers", observer, () -> GetContainersResponse.newBuilder()
        .addAllContainers(containers.containers(request.getContainerIdsList(), request.getClientHost())).build());
  }

  @Override
  public void reportBadReplica(ReportBadReplicaRequest request, StreamObserver<ReportBadReplicaResponse> observer) {
    ScmCalls.respond("ReportBadReplica", observer, () -> {
      if (!request.hasBlockId() || !request.hasDatanode()) {
        throw ScmCalls.invalid("ReportBadReplica needs the block and the datanode");
      }
      containers.reportBadReplica(request.getBlockId(), Uuids.fromProto(request.getDatanode()), request.getReason());
      return ReportBadReplicaResponse.getDefaultInstance();
    });
  }
}
