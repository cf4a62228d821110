package org.tropos.scm.simulation;

import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
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
  /** Per container, the blocks a client was told are written and has not deleted (by their entries' indexes). */
  private final Map<Long, BitSet> live = new TreeMap<>();
  /** Per container, the blocks a client deleted. */
  private final Map<Long, BitSet> deleted = new TreeMap<>();

  Invariants(SimulatedCluster cluster, SimulatedScm scm, PipelineLimits limits, int racks) {
    this.cluster = cluster;
    this.scm = scm;
    this.limits = limits;
    this.racks = racks;
  }

  void acknowledged(long container, long index) {
    highestAcknowledged.merge(container, index, Math::max);
    live.computeIfAbsent(container, c -> new BitSet()).set((int) index);
  }

  /** A block the client wrote and has not deleted, drawn with {@code random}; null if there is none. */
  BlockId anyLiveBlock(Random random) {
    List<Long> written = live.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey)
        .toList();
    if (written.isEmpty()) {
      return null;
    }
    long container = written.get(random.nextInt(written.size()));
    BitSet blocks = live.get(container);
    int index = blocks.nextSetBit(0);
    for (int skip = random.nextInt(blocks.cardinality()); skip > 0; skip--) {
      index = blocks.nextSetBit(index + 1);
    }
    return BlockId.newBuilder().setContainerId(container).setLocalId(index).build();
  }

  void deleted(BlockId block) {
    live.get(block.getContainerId()).clear((int) block.getLocalId());
    deleted.computeIfAbsent(block.getContainerId(), c -> new BitSet()).set((int) block.getLocalId());
  }

  /** Safety: checked after every step. */
  void checkSafety() {
    checkPipelines();
    live.forEach((container, blocks) -> {
      if (!blocks.isEmpty() && scm.containers().container(container) == null) {
        throw new Violation("SCM forgot container " + container + ", which holds acknowledged blocks " + blocks);
      }
    });
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
        if (!r.damaged) {
          checkHoldsLiveBlocks(container, node, r);
        }
      }
      if (!kept) {
        throw new Violation("no sound replica of container " + container + " holds the block acknowledged at "
            + index);
      }
    });
  }

  /** A sound replica holds every block a client wrote up to its bcsid, unless the client deleted it. */
  private void checkHoldsLiveBlocks(long container, SimulatedDatanode node, SimulatedDatanode.Replica r) {
    BitSet missing = live.get(container).get(0, (int) r.bcsid + 1);
    missing.andNot(r.blocks);
    if (!missing.isEmpty()) {
      throw new Violation("the replica of container " + container + " on " + node + " (bcsid " + r.bcsid
          + ") lacks blocks " + missing + ", written and never deleted");
    }
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
   * DEAD); every pipeline on two racks; every deletion carried out and forgotten; no container left QUASI_CLOSED;
   * every written container either OPEN on a live pipeline or CLOSED with enough sound replicas holding its last
   * acknowledged block, on two racks. Returns what is not healed yet, or null.
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
    String undeleted = undeleted();
    if (undeleted != null) {
      return undeleted;
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

  /**
   * Every deletion gone from SCM's log, and carried out on every replica of a node that runs, unless no replica
   * of the container is clean of it: when every copy was away while a deletion finished (or was copied from one
   * that was), nothing is left to tell which blocks it deleted, and they stay. A replica that missed deletions is
   * replaced once a clean one exists.
   */
  private String undeleted() {
    for (Map.Entry<Long, BitSet> d : deleted.entrySet()) {
      List<SimulatedDatanode> holding = cluster.nodes.values().stream().filter(n -> n.up
          && n.replicas.containsKey(d.getKey())).toList();
      boolean anyClean = holding.stream().anyMatch(n -> !n.replicas.get(d.getKey()).blocks.intersects(d.getValue()));
      for (SimulatedDatanode n : holding) {
        BitSet kept = (BitSet) n.replicas.get(d.getKey()).blocks.clone();
        kept.and(d.getValue());
        if (anyClean && !kept.isEmpty()) {
          return "the replica of container " + d.getKey() + " on " + n + " still holds deleted blocks " + kept
              + " while another replica is clean of them";
        }
      }
    }
    long waiting = scm.deletedBlocks().size();
    return waiting == 0 ? null : waiting + " deleted-block transactions are still in SCM's log";
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
