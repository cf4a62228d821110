package org.tropos.scm;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.node.NodeStatus;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.replication.ReplicationManager;

/**
 * SCM's meters while it serves: datanodes by health and operational state, their capacity, pipelines by state,
 * containers by state and by health class (the figures of {@code tropos admin container report}), and replication's
 * work. Removed when SCM stops serving (an HA follower), so that the next term's managers register afresh.
 */
final class ScmMetrics implements AutoCloseable {
  private final MeterRegistry registry;
  private final NodeManager nodes;
  private final List<Meter> meters = new ArrayList<>();

  ScmMetrics(MeterRegistry registry, NodeManager nodes, PipelineManager pipelines, ContainerManager containers,
      ReplicationManager replication) {
    this.registry = registry;
    this.nodes = nodes;
    for (NodeState s : NodeState.values()) {
      if (s != NodeState.NODE_STATE_UNSPECIFIED && s != NodeState.UNRECOGNIZED) {
        gauge("scm.datanodes", "Datanodes by health.", "state", s.name(), () -> countNodes(n -> n.state() == s));
      }
    }
    for (NodeOperationalState s : NodeOperationalState.values()) {
      if (s != NodeOperationalState.NODE_OPERATIONAL_STATE_UNSPECIFIED && s != NodeOperationalState.UNRECOGNIZED) {
        gauge("scm.datanodes.operational", "Datanodes by operational state.", "state", s.name(),
            () -> countNodes(n -> n.operationalState() == s));
      }
    }
    gauge("scm.capacity.bytes", "Capacity of the data volumes of the datanodes not DEAD.", null, null,
        () -> volumeBytes(VolumeReport::getCapacityBytes));
    gauge("scm.used.bytes", "Bytes Tropos uses on the data volumes of the datanodes not DEAD.", null, null,
        () -> volumeBytes(VolumeReport::getUsedBytes));
    for (PipelineState s : PipelineState.values()) {
      if (s != PipelineState.PIPELINE_STATE_UNSPECIFIED && s != PipelineState.UNRECOGNIZED) {
        gauge("scm.pipelines", "Pipelines by state.", "state", s.name(), () -> pipelines.list(s).size());
      }
    }
    for (ContainerState s : ContainerState.values()) {
      if (s != ContainerState.CONTAINER_STATE_UNSPECIFIED && s != ContainerState.UNRECOGNIZED) {
        gauge("scm.containers", "Containers by state.", "state", s.name(),
            () -> containers.replicationViews().stream().filter(c -> c.state() == s).count()
                + containers.ecViews().stream().filter(c -> c.state() == s).count());
      }
    }
    for (ContainerHealth h : ContainerHealth.values()) {
      if (h != ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED && h != ContainerHealth.UNRECOGNIZED) {
        gauge("scm.containers.health", "Containers by health class, as the replication manager last found them.",
            "health", h.name(), () -> replication.counts().getOrDefault(h, 0));
      }
    }
    gauge("scm.replication.copies.in.flight", "Container copies sent and not yet seen done (the replication"
        + " queue).", null, null, () -> replication.report().getCopiesInFlight());
    gauge("scm.replication.deletions.in.flight", "Replica deletions sent and not yet seen done.", null, null,
        () -> replication.report().getDeletionsInFlight());
    meters.add(FunctionCounter.builder("scm.replication.copies.sent", replication, ReplicationManager::copiesSent)
        .description("Container copies sent.").register(registry));
    meters.add(FunctionCounter.builder("scm.replication.deletions.sent", replication,
        ReplicationManager::deletionsSent).description("Replica deletions sent.").register(registry));
    gauge("scm.replication.ec.repairs.in.flight", "Rebuilds, copies and deletions of erasure-coded indexes sent and"
        + " not yet seen done (the reconstruction queue).", null, null, replication::ecRepairsInFlight);
    meters.add(FunctionCounter.builder("scm.replication.ec.rebuilds.sent", replication,
        ReplicationManager::ecRebuildsSent).description("Rebuilds of lost erasure-coded indexes sent.")
        .register(registry));
  }

  private void gauge(String name, String help, String tag, String value, Supplier<Number> reading) {
    Gauge.Builder<Supplier<Number>> gauge = Gauge.builder(name, reading).description(help).strongReference(true);
    if (tag != null) {
      gauge.tag(tag, value);
    }
    meters.add(gauge.register(registry));
  }

  private long countNodes(Predicate<NodeStatus> which) {
    return nodes.nodes().stream().filter(which).count();
  }

  private long volumeBytes(ToLongFunction<VolumeReport> field) {
    return nodes.nodes().stream().filter(n -> n.state() != NodeState.DEAD)
        .flatMap(n -> n.lastReport().getVolumesList().stream()).mapToLong(field).sum();
  }

  @Override
  public void close() {
    meters.forEach(registry::remove);
  }
}
