package org.tropos.scm.pipeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;

/**
 * Which pipeline to replace so pipelines follow the cluster (ARCHITECTURE.md, "SCM: multi-Raft pipeline
 * placement"): one whose members are all on one rack while usable nodes span two, or, when a usable node has no
 * pipeline and no new one can be placed (the others are at their limits), the most loaded pipeline whose
 * replacement would take that node. A replacement is only proposed when placing a pipeline without the victim
 * actually does better, so pipelines are never closed in a loop. Pure and deterministic.
 */
final class PipelineRenewalPolicy {
  private final PipelinePlacementPolicy placement;

  PipelineRenewalPolicy(PipelinePlacementPolicy placement) {
    this.placement = placement;
  }

  /** A pipeline to replace, and why. */
  record Renewal(UUID pipeline, String reason) {
  }

  /**
   * @param open the OPEN RATIS/THREE pipelines and their members
   * @param nodes every known datanode, with the pipelines it is in
   */
  Optional<Renewal> choose(Map<UUID, List<UUID>> open, List<PlacementNode> nodes) {
    List<PlacementNode> usable = nodes.stream().filter(PlacementNode::usable).toList();
    Map<UUID, String> racks = nodes.stream().collect(Collectors.toMap(PlacementNode::id, PlacementNode::rack));
    boolean multiRack = usable.stream().map(PlacementNode::rack).distinct().count() > 1;
    List<UUID> ids = open.keySet().stream().sorted().toList();
    if (multiRack) {
      for (UUID id : ids) {
        Set<String> used = open.get(id).stream().map(racks::get).collect(Collectors.toSet());
        if (used.size() == 1 && replacementSpansRacks(id, open, nodes)) {
          return Optional.of(new Renewal(id, "all its members are on rack " + used.iterator().next()));
        }
      }
    }
    Set<UUID> idle = usable.stream().filter(n -> n.pipelines() == 0).map(PlacementNode::id)
        .collect(Collectors.toSet());
    if (idle.isEmpty() || canPlace(nodes, open)) {
      return Optional.empty();
    }
    Map<UUID, Integer> load = nodes.stream().collect(Collectors.toMap(PlacementNode::id, PlacementNode::pipelines));
    return ids.stream()
        .sorted(Comparator.comparingInt((UUID id) -> -open.get(id).stream().mapToInt(load::get).sum()))
        .filter(id -> replacementLeavesFewerIdle(id, open, nodes, idle.size()))
        .findFirst()
        .map(id -> new Renewal(id, "datanodes " + idle + " have no pipeline and every other is at its limit"));
  }

  private boolean canPlace(List<PlacementNode> nodes, Map<UUID, List<UUID>> open) {
    try {
      placement.place(ReplicationFactor.THREE, nodes, usedSets(open, null));
      return true;
    } catch (ScmException e) {
      return false;
    }
  }

  /**
   * Whether closing {@code victim} and placing its replacement leaves fewer usable nodes without a pipeline. Taking
   * an idle node is not enough: with a limit of one and four nodes, the replacement takes the idle node and frees
   * another, and pipelines would be replaced for ever.
   */
  private boolean replacementLeavesFewerIdle(UUID victim, Map<UUID, List<UUID>> open, List<PlacementNode> nodes,
      int idleBefore) {
    return placeWithout(victim, open, nodes).map(p -> {
      List<UUID> freed = open.get(victim);
      long idleAfter = nodes.stream().filter(PlacementNode::usable)
          .filter(n -> n.pipelines() - (freed.contains(n.id()) ? 1 : 0) + (p.members().contains(n.id()) ? 1 : 0) == 0)
          .count();
      return idleAfter < idleBefore;
    }).orElse(false);
  }

  private boolean replacementSpansRacks(UUID victim, Map<UUID, List<UUID>> open, List<PlacementNode> nodes) {
    Map<UUID, String> racks = nodes.stream().collect(Collectors.toMap(PlacementNode::id, PlacementNode::rack));
    return placeWithout(victim, open, nodes)
        .map(p -> p.members().stream().map(racks::get).distinct().count() > 1).orElse(false);
  }

  /** Where a new pipeline would go once {@code victim} is closed. */
  private Optional<Placement> placeWithout(UUID victim, Map<UUID, List<UUID>> open, List<PlacementNode> nodes) {
    List<UUID> freed = open.get(victim);
    List<PlacementNode> after = new ArrayList<>();
    for (PlacementNode n : nodes) {
      after.add(freed.contains(n.id()) ? new PlacementNode(n.id(), n.rack(), n.raftLogDisks(), n.pipelines() - 1,
          n.leaders(), n.usable()) : n);
    }
    try {
      return Optional.of(placement.place(ReplicationFactor.THREE, after, usedSets(open, victim)));
    } catch (ScmException e) {
      return Optional.empty();
    }
  }

  private static Set<Set<UUID>> usedSets(Map<UUID, List<UUID>> open, UUID except) {
    Set<Set<UUID>> used = new HashSet<>();
    open.forEach((id, members) -> {
      if (!id.equals(except)) {
        used.add(Set.copyOf(members));
      }
    });
    return used;
  }
}
