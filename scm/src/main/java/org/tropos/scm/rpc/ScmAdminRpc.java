package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import org.tropos.common.util.VersionInfo;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.GetScmInfoResponse;
import org.tropos.proto.scm.ListDatanodesRequest;
import org.tropos.proto.scm.ListDatanodesResponse;
import org.tropos.proto.scm.ScmAdminServiceGrpc;
import org.tropos.scm.ScmIdentity;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.node.NodeStatus;

/** SCM's admin service, behind {@code tropos admin}. */
public final class ScmAdminRpc extends ScmAdminServiceGrpc.ScmAdminServiceImplBase {
  private final NodeManager nodes;
  private final ScmIdentity identity;

  public ScmAdminRpc(NodeManager nodes, ScmIdentity identity) {
    this.nodes = nodes;
    this.identity = identity;
  }

  @Override
  public void getScmInfo(GetScmInfoRequest request, StreamObserver<GetScmInfoResponse> observer) {
    ScmCalls.respond("GetScmInfo", observer, () -> GetScmInfoResponse.newBuilder()
        .setClusterId(identity.clusterId()).setScmId(identity.scmId()).setVersion(VersionInfo.version()).build());
  }

  @Override
  public void listDatanodes(ListDatanodesRequest request, StreamObserver<ListDatanodesResponse> observer) {
    ScmCalls.respond("ListDatanodes", observer, () -> {
      ListDatanodesResponse.Builder response = ListDatanodesResponse.newBuilder();
      for (NodeStatus node : nodes.nodes()) {
        if (request.getState() == NodeState.NODE_STATE_UNSPECIFIED || request.getState() == node.state()) {
          response.addDatanodes(DatanodeStatus.newBuilder().setDetails(node.details()).setState(node.state())
              .setLastReport(node.lastReport()).setLastHeartbeatAgeMs(node.lastHeartbeatAgeMs()));
        }
      }
      return response.build();
    });
  }
}
