package org.tropos.scm.rpc;

import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.common.util.VersionInfo;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ContainerDetails;
import org.tropos.proto.scm.CreatePipelineRequest;
import org.tropos.proto.scm.DatanodeAdminRequest;
import org.tropos.proto.scm.DatanodeAdminResponse;
import org.tropos.proto.scm.DatanodeAdminResult;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.proto.scm.GetContainerRequest;
import org.tropos.proto.scm.GetReplicationReportRequest;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.GetScmInfoResponse;
import org.tropos.proto.scm.ListContainersRequest;
import org.tropos.proto.scm.ListContainersResponse;
import org.tropos.proto.scm.ListDatanodesRequest;
import org.tropos.proto.scm.ListDatanodesResponse;
import org.tropos.proto.scm.ListPipelinesRequest;
import org.tropos.proto.scm.ListPipelinesResponse;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;
import org.tropos.proto.scm.PipelineRequest;
import org.tropos.proto.scm.PipelineResponse;
import org.tropos.proto.scm.ReplicationReport;
import org.tropos.proto.scm.ScmAdminServiceGrpc;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.db.ScmIdentity;
import org.tropos.scm.node.DatanodeAdmin;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.node.NodeStatus;
import org.tropos.scm.pipeline.NodeLoad;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.pipeline.PipelineView;
import org.tropos.scm.replication.ReplicationManager;

/** SCM's admin service, behind {@code tropos admin}. */
public final class ScmAdminRpc extends ScmAdminServiceGrpc.ScmAdminServiceImplBase {
  private final NodeManager nodes;
  private final PipelineManager pipelines;
  private final ScmIdentity identity;
  private final DatanodeAdmin datanodeAdmin;
  private final ContainerAdminViews containerViews;
  private final ScmAdministrators administrators;

  /** @param administrators who may change datanodes and pipelines (anyone may look) */
  public ScmAdminRpc(NodeManager nodes, PipelineManager pipelines, ScmIdentity identity, DatanodeAdmin datanodeAdmin,
      ContainerManager containers, ReplicationManager replication, ScmAdministrators administrators) {
    this.administrators = administrators;
    this.nodes = nodes;
    this.pipelines = pipelines;
    this.identity = identity;
    this.datanodeAdmin = datanodeAdmin;
    this.containerViews = new ContainerAdminViews(containers, replication, nodes);
  }

  @Override
  public void getScmInfo(GetScmInfoRequest request, StreamObserver<GetScmInfoResponse> observer) {
    ScmCalls.respond("GetScmInfo", observer, () -> GetScmInfoResponse.newBuilder()
        .setClusterId(identity.clusterId()).setScmId(identity.scmId()).setVersion(VersionInfo.version()).build());
  }

  @Override
  public void listDatanodes(ListDatanodesRequest request, StreamObserver<ListDatanodesResponse> observer) {
    ScmCalls.respond("ListDatanodes", observer, () -> {
      administrators.checkReader("list datanodes");
      Map<UUID, NodeLoad> load = pipelines.loadPerNode();
      ListDatanodesResponse.Builder response = ListDatanodesResponse.newBuilder();
      for (NodeStatus node : nodes.nodes()) {
        if (request.getState() == NodeState.NODE_STATE_UNSPECIFIED || request.getState() == node.state()) {
          NodeLoad l = load.getOrDefault(node.id(), new NodeLoad(0, 0));
          response.addDatanodes(DatanodeStatus.newBuilder().setDetails(node.details()).setState(node.state())
              .setLastReport(node.lastReport()).setLastHeartbeatAgeMs(node.lastHeartbeatAgeMs())
              .setPipelineCount(l.pipelines()).setLeaderCount(l.leaders())
              .setOperationalState(node.operationalState())
              .setMaintenanceEndEpochMs(node.maintenanceEndEpochMs()).setServing(node.serving()));
        }
      }
      return response.build();
    });
  }

  @Override
  public void listPipelines(ListPipelinesRequest request, StreamObserver<ListPipelinesResponse> observer) {
    ScmCalls.respond("ListPipelines", observer, () -> {
      administrators.checkReader("list pipelines");
      return ListPipelinesResponse.newBuilder().addAllPipelines(pipelines.list(request.getState()).stream()
          .map(ScmAdminRpc::toInfo).toList()).build();
    });
  }

  @Override
  public void createPipeline(CreatePipelineRequest request, StreamObserver<PipelineResponse> observer) {
    ScmCalls.respond("CreatePipeline", observer, () -> {
      administrators.check("create a pipeline");
      ReplicationFactor factor = request.getFactor() == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED
          ? ReplicationFactor.THREE : request.getFactor();
      return response(pipelines.create(factor));
    });
  }

  @Override
  public void closePipeline(PipelineRequest request, StreamObserver<PipelineResponse> observer) {
    ScmCalls.respond("ClosePipeline", observer, () -> {
      administrators.check("close a pipeline");
      return response(pipelines.close(idOf(request), "closed by admin"));
    });
  }

  @Override
  public void activatePipeline(PipelineRequest request, StreamObserver<PipelineResponse> observer) {
    ScmCalls.respond("ActivatePipeline", observer, () -> {
      administrators.check("activate a pipeline");
      return response(pipelines.activate(idOf(request)));
    });
  }

  @Override
  public void deactivatePipeline(PipelineRequest request, StreamObserver<PipelineResponse> observer) {
    ScmCalls.respond("DeactivatePipeline", observer, () -> {
      administrators.check("deactivate a pipeline");
      return response(pipelines.deactivate(idOf(request)));
    });
  }

  @Override
  public void decommissionDatanodes(DatanodeAdminRequest request, StreamObserver<DatanodeAdminResponse> observer) {
    ScmCalls.respond("DecommissionDatanodes", observer, () -> {
      administrators.check("decommission datanodes");
      return results(datanodeAdmin.decommission(hosts(request)));
    });
  }

  @Override
  public void recommissionDatanodes(DatanodeAdminRequest request, StreamObserver<DatanodeAdminResponse> observer) {
    ScmCalls.respond("RecommissionDatanodes", observer, () -> {
      administrators.check("recommission datanodes");
      return results(datanodeAdmin.recommission(hosts(request)));
    });
  }

  @Override
  public void startMaintenance(DatanodeAdminRequest request, StreamObserver<DatanodeAdminResponse> observer) {
    ScmCalls.respond("StartMaintenance", observer, () -> {
      administrators.check("put datanodes in maintenance");
      if (request.getEndAfterHours() < 0) {
        throw ScmCalls.invalid("maintenance cannot end " + request.getEndAfterHours() + " hours from now");
      }
      return results(datanodeAdmin.startMaintenance(hosts(request), request.getEndAfterHours()));
    });
  }

  private static List<String> hosts(DatanodeAdminRequest request) throws ScmException {
    if (request.getHostsCount() == 0) {
      throw ScmCalls.invalid("name at least one datanode");
    }
    return request.getHostsList();
  }

  private static DatanodeAdminResponse results(List<DatanodeAdminResult> results) {
    return DatanodeAdminResponse.newBuilder().addAllResults(results).build();
  }

  @Override
  public void listContainers(ListContainersRequest request, StreamObserver<ListContainersResponse> observer) {
    ScmCalls.respond("ListContainers", observer, () -> {
      administrators.checkReader("list containers");
      return containerViews.list(request);
    });
  }

  @Override
  public void getContainer(GetContainerRequest request, StreamObserver<ContainerDetails> observer) {
    ScmCalls.respond("GetContainer", observer, () -> {
      administrators.checkReader("read a container's details");
      return containerViews.details(request.getContainerId());
    });
  }

  @Override
  public void getReplicationReport(GetReplicationReportRequest request,
      StreamObserver<ReplicationReport> observer) {
    ScmCalls.respond("GetReplicationReport", observer, () -> {
      administrators.checkReader("read the replication report");
      return containerViews.report();
    });
  }

  private static UUID idOf(PipelineRequest request) throws ScmException {
    if (!request.hasId() || !request.getId().hasId()) {
      throw ScmCalls.invalid("the request names no pipeline");
    }
    return Uuids.fromProto(request.getId().getId());
  }

  private static PipelineResponse response(PipelineView view) {
    return PipelineResponse.newBuilder().setPipeline(toInfo(view)).build();
  }

  static PipelineInfo toInfo(PipelineView view) {
    PipelineInfo.Builder info = PipelineInfo.newBuilder().setId(view.record().getId())
        .setFactor(view.record().getFactor()).setState(view.record().getState())
        .setSuggestedLeader(view.record().getSuggestedLeader()).setCreatedEpochMs(view.record().getCreatedEpochMs());
    if (view.leader() != null) {
      info.setLeader(Uuids.toProto(view.leader()));
    }
    for (PipelineView.Member m : view.members()) {
      PipelineMember.Builder member = PipelineMember.newBuilder();
      if (m.node() != null) {
        member.setDatanode(m.node().details()).setNodeState(m.node().state());
      } else {
        member.setDatanode(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(m.id())));
      }
      if (m.report() != null) {
        member.setRole(m.report().getRole()).setLogDir(m.report().getLogDir());
      }
      info.addMembers(member);
    }
    return info.build();
  }
}
