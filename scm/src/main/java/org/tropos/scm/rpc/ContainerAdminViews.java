package org.tropos.scm.rpc;

import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ClassHealthCount;
import org.tropos.proto.scm.ContainerDetails;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.proto.scm.ListContainersRequest;
import org.tropos.proto.scm.ListContainersResponse;
import org.tropos.proto.scm.ReplicaInfo;
import org.tropos.proto.scm.ReplicationReport;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.replication.ReplicationManager;

/** What {@code tropos admin container} shows: containers, their replicas and health, from SCM's managers. */
final class ContainerAdminViews {
  private static final int DEFAULT_LIMIT = 1000;

  private final ContainerManager containers;
  private final ReplicationManager replication;
  private final NodeManager nodes;

  ContainerAdminViews(ContainerManager containers, ReplicationManager replication, NodeManager nodes) {
    this.containers = containers;
    this.replication = replication;
    this.nodes = nodes;
  }

  ListContainersResponse list(ListContainersRequest request) {
    int limit = request.getLimit() <= 0 ? DEFAULT_LIMIT : request.getLimit();
    Map<Long, ContainerHealth> health = replication.health();
    ListContainersResponse.Builder response = ListContainersResponse.newBuilder();
    containers.ids().stream().filter(id -> id >= request.getStartId()).sorted()
        .map(id -> summary(id, health))
        .filter(Optional::isPresent).map(Optional::get)
        .filter(s -> request.getState() == ContainerState.CONTAINER_STATE_UNSPECIFIED
            || s.getState() == request.getState())
        .filter(s -> request.getHealth() == ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED
            || s.getHealth() == request.getHealth())
        .limit(limit).forEach(response::addContainers);
    return response.build();
  }

  ContainerDetails details(long id) throws ScmException {
    ContainerSummary summary = summary(id, replication.health()).orElseThrow(() -> new ScmException(
        ScmResult.CONTAINER_NOT_FOUND, "no container " + id));
    ContainerDetails.Builder details = ContainerDetails.newBuilder().setSummary(summary);
    List<UUID> bad = containers.badReplicas(id);
    // An erasure-coded container's replicas in index order, others by datanode.
    containers.replicaReports(id).entrySet().stream()
        .sorted(Comparator.comparing((Map.Entry<UUID, ContainerReport> e) -> e.getValue().getReplicaIndex())
            .thenComparing(e -> e.getKey().toString()))
        .forEach(e -> {
          ContainerReport r = e.getValue();
          ReplicaInfo.Builder replica = ReplicaInfo.newBuilder().setState(r.getState()).setBcsid(r.getBcsid())
              .setBlockCount(r.getBlockCount()).setUsedBytes(r.getUsedBytes())
              .setDataScanEpochMs(r.getDataScanEpochMs()).setReportedBad(bad.contains(e.getKey()))
              .setReplicaIndex(r.getReplicaIndex());
          nodes.node(e.getKey()).ifPresent(n -> replica.setDatanode(n.details()).setNodeState(n.state())
              .setOperationalState(n.operationalState()));
          details.addReplicas(replica);
        });
    return details.build();
  }

  private Optional<ContainerSummary> summary(long id, Map<Long, ContainerHealth> health) {
    ContainerRecord c = containers.container(id);
    if (c == null) {
      return Optional.empty();
    }
    Map<UUID, ContainerReport> reports = containers.replicaReports(id);
    ContainerReport largest = reports.values().stream().max(Comparator.comparingLong(ContainerReport::getUsedBytes))
        .orElse(ContainerReport.getDefaultInstance());
    ContainerSummary.Builder summary = ContainerSummary.newBuilder().setContainerId(id).setState(c.getState())
        .setHealth(health.getOrDefault(id, ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED))
        .setRequired(c.getMembersCount()).setReplicaCount(reports.size())
        .setUsedBytes(largest.getUsedBytes()).setBlockCount(largest.getBlockCount())
        .setReplication(replicationClass(c));
    if (c.hasPipelineId()) {
      summary.setPipelineId(c.getPipelineId()); // an erasure-coded container has none
    }
    if (c.hasEc()) {
      summary.setEc(c.getEc());
    }
    return Optional.of(summary.build());
  }

  /** The replication manager's report with its counts also by replication class. */
  ReplicationReport report() {
    Map<String, Map<ContainerHealth, Long>> byClass = new TreeMap<>();
    replication.health().forEach((id, h) -> {
      ContainerRecord c = containers.container(id);
      if (c != null) {
        byClass.computeIfAbsent(replicationClass(c), k -> new EnumMap<>(ContainerHealth.class)).merge(h, 1L,
            Long::sum);
      }
    });
    ReplicationReport.Builder report = replication.report().toBuilder();
    byClass.forEach((name, counts) -> counts.forEach((h, n) -> report.addClassCounts(ClassHealthCount.newBuilder()
        .setReplication(name).setHealth(h).setCount(n))));
    return report.build();
  }

  /** {@code EC/rs-6-3-1024k} for an erasure-coded container, {@code RATIS/THREE} or {@code RATIS/ONE} otherwise. */
  private static String replicationClass(ContainerRecord c) {
    return c.hasEc() ? "EC/" + EcReplication.fromProto(c.getEc())
        : "RATIS/" + (c.getMembersCount() == 1 ? ReplicationFactor.ONE : ReplicationFactor.THREE);
  }
}
