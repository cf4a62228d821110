package org.tropos.client;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ContainerDetails;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.proto.scm.CreatePipelineRequest;
import org.tropos.proto.scm.DatanodeAdminRequest;
import org.tropos.proto.scm.DatanodeAdminResult;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.proto.scm.GetContainerRequest;
import org.tropos.proto.scm.GetReplicationReportRequest;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.GetScmInfoResponse;
import org.tropos.proto.scm.ListContainersRequest;
import org.tropos.proto.scm.ListDatanodesRequest;
import org.tropos.proto.scm.ListPipelinesRequest;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineRequest;
import org.tropos.proto.scm.ReplicationReport;
import org.tropos.proto.scm.ScmAdminServiceGrpc;

/** A client of SCM's admin service. Failures arrive as {@link ScmException} with SCM's result code. */
public final class ScmAdminClient implements AutoCloseable {
  private final ScmChannel scm;

  public ScmAdminClient(HostPort address) {
    this(List.of(address));
  }

  /** @param addresses the client service of each SCM of an HA service: calls follow the leader */
  public ScmAdminClient(List<HostPort> addresses) {
    this(addresses, TransportSecurity.plaintext());
  }

  /**
   * The SCM admin service of the cluster {@code conf} names (ozone.scm.client.address, or the SCMs of
   * ozone.scm.service.ids), reached as a user's client of it (TLS to its CA when it runs secure).
   */
  public static ScmAdminClient connect(Configuration conf) throws IOException {
    return new ScmAdminClient(ScmAddresses.clientServices(conf), SecuritySettings.userTransport(conf));
  }

  /** The same, SCM reached as {@code transport} says. */
  public ScmAdminClient(List<HostPort> addresses, TransportSecurity transport) {
    this.scm = new ScmChannel(addresses, transport);
  }

  public GetScmInfoResponse scmInfo() throws ScmException {
    return scm.call(() -> stub().getScmInfo(GetScmInfoRequest.getDefaultInstance()));
  }

  /** Datanodes in {@code state}, or all with {@link NodeState#NODE_STATE_UNSPECIFIED}. */
  public List<DatanodeStatus> listDatanodes(NodeState state) throws ScmException {
    return scm.call(() -> stub().listDatanodes(ListDatanodesRequest.newBuilder().setState(state).build())
        .getDatanodesList());
  }

  /** Pipelines in {@code state}, or all but CLOSED with {@link PipelineState#PIPELINE_STATE_UNSPECIFIED}. */
  public List<PipelineInfo> listPipelines(PipelineState state) throws ScmException {
    return scm.call(() -> stub().listPipelines(ListPipelinesRequest.newBuilder().setState(state).build())
        .getPipelinesList());
  }

  public PipelineInfo createPipeline(ReplicationFactor factor) throws ScmException {
    return scm.call(() -> stub().createPipeline(CreatePipelineRequest.newBuilder().setFactor(factor).build())
        .getPipeline());
  }

  public PipelineInfo closePipeline(UUID id) throws ScmException {
    return scm.call(() -> stub().closePipeline(request(id)).getPipeline());
  }

  public PipelineInfo activatePipeline(UUID id) throws ScmException {
    return scm.call(() -> stub().activatePipeline(request(id)).getPipeline());
  }

  public PipelineInfo deactivatePipeline(UUID id) throws ScmException {
    return scm.call(() -> stub().deactivatePipeline(request(id)).getPipeline());
  }

  public List<DatanodeAdminResult> decommission(List<String> hosts) throws ScmException {
    return scm.call(() -> stub().decommissionDatanodes(adminRequest(hosts, 0)).getResultsList());
  }

  public List<DatanodeAdminResult> recommission(List<String> hosts) throws ScmException {
    return scm.call(() -> stub().recommissionDatanodes(adminRequest(hosts, 0)).getResultsList());
  }

  /** @param endAfterHours hours until the nodes return to service by themselves; 0 = until recommissioned */
  public List<DatanodeAdminResult> startMaintenance(List<String> hosts, int endAfterHours) throws ScmException {
    return scm.call(() -> stub().startMaintenance(adminRequest(hosts, endAfterHours)).getResultsList());
  }

  private static DatanodeAdminRequest adminRequest(List<String> hosts, int endAfterHours) {
    return DatanodeAdminRequest.newBuilder().addAllHosts(hosts).setEndAfterHours(endAfterHours).build();
  }

  /** Containers from {@code startId} on, in {@code state} and {@code health} (unspecified = any). */
  public List<ContainerSummary> listContainers(ContainerState state, ContainerHealth health, long startId,
      int limit) throws ScmException {
    return scm.call(() -> stub().listContainers(ListContainersRequest.newBuilder().setState(state)
        .setHealth(health).setStartId(startId).setLimit(limit).build()).getContainersList());
  }

  public ContainerDetails container(long id) throws ScmException {
    return scm.call(() -> stub().getContainer(GetContainerRequest.newBuilder().setContainerId(id).build()));
  }

  public ReplicationReport replicationReport() throws ScmException {
    return scm.call(() -> stub().getReplicationReport(GetReplicationReportRequest.getDefaultInstance()));
  }

  private static PipelineRequest request(UUID id) {
    return PipelineRequest.newBuilder().setId(PipelineId.newBuilder().setId(Uuids.toProto(id))).build();
  }

  private ScmAdminServiceGrpc.ScmAdminServiceBlockingStub stub() {
    return scm.stub(ScmAdminServiceGrpc::newBlockingStub);
  }

  @Override
  public void close() {
    scm.close();
  }
}
