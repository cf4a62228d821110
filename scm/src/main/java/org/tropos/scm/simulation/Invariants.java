package org.tropos.scm.simulation;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.node.NodeStatus;
import org.tropos.scm.pipeline.NodeLoad;
import org.tropos.scm.pipeline.PipelineLimits;
import org.tropos.scm.pipeline.PipelineView;

/**
 * What must hold of the simulated cluster: after every step (safety) and once the faults stopped and the cluster
 * had time to heal (liveness). Each check states the property in the exception it throws.
 */
final class Invariants {
  /** A property that does not hold. */
  static final class Violation extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Violation(String message) {
      super(message);
    }
  }

  private final SimulatedCluster cluster;
  private final SimulatedScm scm;
  private final PipelineLimits limits;
  private final int racks;
  /** Per container, the index of the last block a client was told is written. */
  private final Map<Long, Long> highestAcknowledged = new TreeMap<>();

  Invariants(SimulatedCluster cluster, SimulatedScm scm, PipelineLimits limits, int racks) {
    this.cluster = cluster;
    this.scm = scm;
    this.limits = limits;
    this.racks = racks;
  }

  void acknowledged(long container, long index) {
    highestAcknowledged.merge(container, index, Math::max);
  }

  /** Safety: checked after every step. */
  void checkSafety() {
    checkPipelines();
    highestAcknowledged.forEach((container, index) -> {
      boolean kept = false;
      for (SimulatedDatanode node : cluster.nodes.values()) {
        SimulatedDatanode.Replica r = node.replicas.get(container);
        if (r == null) {
          continue;
        }
        if (r.damaged && r.state == ContainerState.CONTAINER_CLOSED) {
          throw new Violation("the replica of container " + container + " on " + node + " was found damaged and"
              + " is CLOSED: it counts as a sound copy");
        }
        if (r.state == ContainerState.CONTAINER_CLOSED && r.bcsid < index) {
          throw new Violation("the replica of container " + container + " on " + node + " is CLOSED at bcsid "
              + r.bcsid + ", below the acknowledged block at " + index);
        }
        kept |= !r.damaged && r.bcsid >= index;
      }
      if (!kept) {
        throw new Violation("no sound replica of container " + container + " holds the block acknowledged at "
            + index);
      }
    });
  }

  /** Each node within its pipeline limit. */
  private void checkPipelines() {
    for (Map.Entry<UUID, NodeLoad> load : scm.pipelines().loadPerNode().entrySet()) {
      if (load.getValue().pipelines() > limits.perNode()) {
        throw new Violation(cluster.nodes.get(load.getKey()) + " is in " + load.getValue().pipelines()
            + " pipelines, over its limit of " + limits.perNode());
      }
    }
  }

  /**
   * A RATIS/THREE pipeline on one rack while another rack has a node with room for a pipeline: placed while only
   * one rack's nodes were usable (availability first, as HDFS and Ozone place), it must be replaced once a
   * replacement can span two racks. (Where every node of the other racks is full, pipelines stay as they are: the
   * pipeline renewal replaces one pipeline at a time and finds no better set.)
   */
  private String oneRackPipeline() {
    Map<UUID, NodeLoad> loads = scm.pipelines().loadPerNode();
    for (PipelineView p : scm.pipelines().list(PipelineState.PIPELINE_STATE_UNSPECIFIED)) {
      Set<String> on = p.members().stream().map(m -> cluster.nodes.get(m.id()).rack).collect(Collectors.toSet());
      if (p.record().getFactor() != ReplicationFactor.THREE || on.size() > 1) {
        continue;
      }
      boolean roomElsewhere = scm.nodes().nodes().stream().anyMatch(n -> n.state() == NodeState.HEALTHY
          && n.inService() && !on.contains(cluster.nodes.get(n.id()).rack)
          && loads.getOrDefault(n.id(), new NodeLoad(0, 0)).pipelines() < limits.perNode());
      if (roomElsewhere) {
        return "pipeline " + Uuids.fromProto(p.record().getId().getId()) + " is " + p.record().getState()
            + " on one rack, " + on + ", while another rack has room";
      }
    }
    return null;
  }

  /**
   * Liveness, once every node is back and the faults stopped: every node HEALTHY and in service (one gone for good
   * DEAD); every pipeline on two racks; no container left QUASI_CLOSED; every written container either OPEN on a
   * live pipeline or CLOSED with enough sound replicas holding its last acknowledged block, on two racks. Returns
   * what is not healed yet, or null.
   */
  String unhealed() {
    for (NodeStatus n : scm.nodes().nodes()) {
      if (cluster.nodes.get(n.id()).gone) {
        if (n.state() != NodeState.DEAD) {
          return cluster.nodes.get(n.id()) + " is gone for good but " + n.state();
        }
      } else if (n.state() != NodeState.HEALTHY || n.operationalState() != NodeOperationalState.IN_SERVICE) {
        return cluster.nodes.get(n.id()) + " is " + n.state() + " and " + n.operationalState();
      }
    }
    String oneRack = oneRackPipeline();
    if (oneRack != null) {
      return oneRack;
    }
    Set<UUID> livePipelines = new HashSet<>();
    scm.pipelines().list(PipelineState.PIPELINE_STATE_UNSPECIFIED)
        .forEach(p -> livePipelines.add(Uuids.fromProto(p.record().getId().getId())));
    for (long id : scm.containers().ids()) {
      ContainerRecord c = scm.containers().container(id);
      long acknowledged = highestAcknowledged.getOrDefault(id, 0L);
      String unhealed = switch (c.getState()) {
        case CONTAINER_OPEN, CONTAINER_CLOSING -> livePipelines.contains(Uuids.fromProto(c.getPipelineId().getId()))
            ? null : "container " + id + " is " + c.getState() + " on a closed pipeline";
        case CONTAINER_CLOSED -> unreplicated(id, acknowledged, c.getMembersCount());
        default -> "container " + id + " is " + c.getState() + (acknowledged > 0 ? " (written)" : " (never written)");
      };
      if (unhealed != null) {
        return unhealed + "; replicas: " + replicas(id);
      }
    }
    return null;
  }

  private String unreplicated(long id, long acknowledged, int required) {
    List<SimulatedDatanode> sound = cluster.nodes.values().stream().filter(n -> {
      SimulatedDatanode.Replica r = n.replicas.get(id);
      return n.up && r != null && !r.damaged && r.state == ContainerState.CONTAINER_CLOSED && r.bcsid >= acknowledged;
    }).toList();
    Set<String> on = sound.stream().map(n -> n.rack).collect(Collectors.toSet());
    if (sound.size() < required || (racks > 1 && required > 1 && on.size() < 2)) {
      return "container " + id + " has " + sound.size() + " sound CLOSED replicas on racks " + on + " (needs "
          + required + " on two racks)";
    }
    return null;
  }

  private String replicas(long id) {
    StringBuilder out = new StringBuilder();
    for (SimulatedDatanode n : cluster.nodes.values()) {
      SimulatedDatanode.Replica r = n.replicas.get(id);
      if (r != null) {
        out.append(n).append(n.up ? "" : "(down)").append('=').append(r.state).append('@').append(r.bcsid)
            .append(r.damaged ? "(damaged)" : "").append(' ');
      }
    }
    return out.length() == 0 ? "none" : out.toString().trim();
  }
}
