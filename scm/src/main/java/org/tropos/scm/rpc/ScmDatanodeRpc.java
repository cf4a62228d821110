package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.HeartbeatResponse;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmDatanodeServiceGrpc;
import org.tropos.scm.ScmIdentity;
import org.tropos.scm.block.BlockDeletingService;
import org.tropos.scm.node.NodeManager;

/**
 * SCM's datanode service: validates register and heartbeat requests and hands them to the node manager; a
 * heartbeat's acknowledged deletions go to the block deleting service.
 */
public final class ScmDatanodeRpc extends ScmDatanodeServiceGrpc.ScmDatanodeServiceImplBase {
  private final NodeManager nodes;
  private final ScmIdentity identity;
  private final BlockDeletingService deletions;

  public ScmDatanodeRpc(NodeManager nodes, ScmIdentity identity, BlockDeletingService deletions) {
    this.nodes = nodes;
    this.identity = identity;
    this.deletions = deletions;
  }

  @Override
  public void register(RegisterRequest request, StreamObserver<RegisterResponse> observer) {
    ScmCalls.respond("Register", observer, () -> {
      DatanodeDetails offered = request.getDatanode();
      if (!offered.hasUuid() || offered.getHostName().isBlank()) {
        throw ScmCalls.invalid("Register needs the datanode's uuid and host name");
      }
      DatanodeDetails registered = nodes.register(offered, request.getNodeReport(), request.getClusterId());
      return RegisterResponse.newBuilder().setClusterId(identity.clusterId()).setScmId(identity.scmId())
          .setNetworkLocation(registered.getNetworkLocation()).build();
    });
  }

  @Override
  public void heartbeat(HeartbeatRequest request, StreamObserver<HeartbeatResponse> observer) {
    ScmCalls.respond("Heartbeat", observer, () -> {
      if (!request.hasDatanodeUuid()) {
        throw ScmCalls.invalid("Heartbeat needs the datanode's uuid");
      }
      // Acknowledged deletions are facts even from a node that must register again: record them first.
      deletions.acknowledged(Uuids.fromProto(request.getDatanodeUuid()), request.getDeleteBlocksAcksList());
      return HeartbeatResponse.newBuilder()
          .addAllCommands(nodes.heartbeat(Uuids.fromProto(request.getDatanodeUuid()), request.getNodeReport(),
              request.getPipelineReportsList(), request.getContainerReportsList()))
          .build();
    });
  }
}
