package org.tropos.scm.replication;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Where a new replica goes and where it is copied from. A target is a node that may receive it and holds no
 * replica of the container (in any state); among those, the one on the rack with the fewest of the container's
 * replicas (so a container on one rack gains another rack, and three replicas on two racks end 2 + 1), then the
 * one receiving the fewest copies, then the one with the most free space. Sources are every healthy replica on a
 * node SCM can reach, the least-used first, so that the copies of a lost node's containers are read from every
 * node that holds them, not from one.
 */
final class CopyPlacement {
  private CopyPlacement() {
  }

  /**
   * @param racksOfReplicas how many of the container's replicas (kept or being made) each rack has
   * @param excluded nodes holding a replica of it (any state) or receiving one
   */
  static Optional<ReplicaNode> target(long containerId, long bytes, Collection<ReplicaNode> nodes,
      Map<String, Integer> racksOfReplicas, Set<UUID> excluded, ReplicationRound round) {
    return nodes.stream()
        .filter(n -> n.canReceive(bytes) && !excluded.contains(n.id()) && round.mayReceive(n.id()))
        .min(Comparator.comparingInt((ReplicaNode n) -> racksOfReplicas.getOrDefault(n.rack(), 0))
            .thenComparingInt(n -> round.copiesTo(n.id()))
            .thenComparing(Comparator.comparingLong(ReplicaNode::freeBytes).reversed())
            .thenComparingInt(n -> spread(containerId, n.id())));
  }

  /** The nodes to copy from, in the order the target tries them. */
  static List<UUID> sources(long containerId, List<ReplicaNode> holders, ReplicationRound round) {
    return holders.stream().filter(ReplicaNode::commandable)
        .sorted(Comparator.comparingInt((ReplicaNode n) -> round.copiesFrom(n.id()))
            .thenComparingInt(n -> spread(containerId, n.id())))
        .map(ReplicaNode::id).toList();
  }

  /** A tie-breaker that differs between containers, so equal choices are spread rather than piled on one node. */
  private static int spread(long containerId, UUID node) {
    return Long.hashCode(containerId * 0x9E3779B97F4A7C15L ^ node.getLeastSignificantBits());
  }
}
