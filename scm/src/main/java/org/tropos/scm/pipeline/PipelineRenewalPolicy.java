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
 * placement"): one whose members are all on one rack while usable nodes span two; or, when no new pipeline can be
 * placed, the most loaded pipeline whose replacement would take a node that has none, or else one whose
 * replacement leaves room for one more pipeline. The last happens when datanodes register a while apart: the first
 * fill fills the early ones up to their limits, and a late one is left with room no two others share. A
 * replacement is only proposed when placing a pipeline without the victim actually does better (fewer idle nodes,
 * or more pipelines), so pipelines are never closed in a loop. Pure and deterministic.
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
   * @param roomInCluster whether the cluster-wide limit (ozone.scm.ratis.pipeline.limit) allows one more pipeline:
   *     without it a replacement made to fit one more would only be replaced again
   */
  Optional<Renewal> choose(Map<UUID, List<UUID>> open, List<PlacementNode> nodes, boolean roomInCluster) {
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
    if (canPlace(nodes, usedSets(open, null))) {
      return Optional.empty();
    }
    Map<UUID, Integer> load = nodes.stream().collect(Collectors.toMap(PlacementNode::id, PlacementNode::pipelines));
    List<UUID> mostLoadedFirst = ids.stream()
        .sorted(Comparator.comparingInt((UUID id) -> -open.get(id).stream().mapToInt(load::get).sum())).toList();
    Set<UUID> idle = usable.stream().filter(n -> n.pipelines() == 0).map(PlacementNode::id)
        .collect(Collectors.toSet());
    if (!idle.isEmpty()) {
      Optional<Renewal> takingIdle = mostLoadedFirst.stream()
          .filter(id -> replacementLeavesFewerIdle(id, open, nodes, idle.size()))
          .findFirst()
          .map(id -> new Renewal(id, "datanodes " + idle + " have no pipeline and every other is at its limit"));
      if (takingIdle.isPresent()) {
        return takingIdle;
      }
    }
    // A replacement frees three places and takes three, so one more fits after it only if three are free now;
    // checked first, as in the steady state (every node at its limit) this is every renewer round.
    if (!roomInCluster || usable.stream().mapToInt(placement::room).sum() < 3) {
      return Optional.empty();
    }
    return mostLoadedFirst.stream()
        .filter(id -> replacementMakesRoomForOneMore(id, open, nodes))
        .findFirst()
        .map(id -> new Renewal(id, "no three datanodes with room can form a pipeline; with this one replaced,"
            + " one more fits"));
  }

  private boolean canPlace(List<PlacementNode> nodes, Set<Set<UUID>> usedSets) {
    try {
      placement.place(ReplicationFactor.THREE, nodes, usedSets);
      return true;
    } catch (ScmException e) {
      return false;
    }
  }

  /** Whether, once {@code victim} is closed and its replacement placed, another pipeline can be placed too. */
  private boolean replacementMakesRoomForOneMore(UUID victim, Map<UUID, List<UUID>> open,
      List<PlacementNode> nodes) {
    return placeWithout(victim, open, nodes).map(p -> {
      Set<Set<UUID>> usedAfter = usedSets(open, victim);
      usedAfter.add(Set.copyOf(p.members()));
      return canPlace(replaced(nodes, open.get(victim), p.members()), usedAfter);
    }).orElse(false);
  }

  /**
   * Whether closing {@code victim} and placing its replacement leaves fewer usable nodes without a pipeline. Taking
   * an idle node is not enough: with a limit of one and four nodes, the replacement takes the idle node and frees
   * another, and pipelines would be replaced for ever.
   */
  private boolean replacementLeavesFewerIdle(UUID victim, Map<UUID, List<UUID>> open, List<PlacementNode> nodes,
      int idleBefore) {
    return placeWithout(victim, open, nodes)
        .map(p -> replaced(nodes, open.get(victim), p.members()).stream()
            .filter(n -> n.usable() && n.pipelines() == 0).count() < idleBefore)
        .orElse(false);
  }

  private boolean replacementSpansRacks(UUID victim, Map<UUID, List<UUID>> open, List<PlacementNode> nodes) {
    Map<UUID, String> racks = nodes.stream().collect(Collectors.toMap(PlacementNode::id, PlacementNode::rack));
    return placeWithout(victim, open, nodes)
        .map(p -> p.members().stream().map(racks::get).distinct().count() > 1).orElse(false);
  }

  /** Where a new pipeline would go once {@code victim} is closed. */
  private Optional<Placement> placeWithout(UUID victim, Map<UUID, List<UUID>> open, List<PlacementNode> nodes) {
    try {
      return Optional.of(placement.place(ReplicationFactor.THREE, replaced(nodes, open.get(victim), List.of()),
          usedSets(open, victim)));
    } catch (ScmException e) {
      return Optional.empty();
    }
  }

  /** {@code nodes} once the pipeline of {@code closed} is closed and one of {@code opened} is open. */
  private static List<PlacementNode> replaced(List<PlacementNode> nodes, List<UUID> closed, List<UUID> opened) {
    List<PlacementNode> after = new ArrayList<>();
    for (PlacementNode n : nodes) {
      int change = (opened.contains(n.id()) ? 1 : 0) - (closed.contains(n.id()) ? 1 : 0);
      after.add(change == 0 ? n : n.withPipelines(n.pipelines() + change));
    }
    return after;
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
