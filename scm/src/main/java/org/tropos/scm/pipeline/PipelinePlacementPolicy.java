package org.tropos.scm.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ScmResult;

/**
 * Chooses the datanodes of a new pipeline (ARCHITECTURE.md, "SCM: multi-Raft pipeline placement").
 *
 * <p>RATIS/THREE: the anchor is the least-loaded node, then a node on another rack, then one on the anchor's
 * rack (two racks, 2 + 1); on a single-rack cluster, the three least-loaded nodes. Load is the fraction of its
 * limit a node would use, so nodes with more RaftLog disks (a higher auto limit) take proportionally more.
 * Among near-equal choices, nodes that share fewer pipelines are preferred, and a set of nodes already
 * used together is reused only when nothing else fits. The suggested leader is the member leading the fewest
 * pipelines for its limit. RATIS/ONE: a usable node that has no RATIS/ONE pipeline yet.
 *
 * <p>Pure and deterministic: it reads a snapshot and returns a decision, or a typed error, never a partial
 * pipeline. Not thread-safe to share snapshots; the policy itself holds no mutable state.
 */
public final class PipelinePlacementPolicy {
  /** Nodes examined for each of the second and third places when looking for an unused set. */
  private static final int CHOICES_PER_PLACE = 8;
  /**
   * Weight of each pair of chosen nodes already in a pipeline together: small enough to act only between
   * near-equal loads, so partnerships spread and a lost node's freed capacity is spread too.
   */
  private static final double PAIR_WEIGHT = 1e-3;

  private final PipelineLimits limits;

  public PipelinePlacementPolicy(PipelineLimits limits) {
    this.limits = limits;
  }

  /**
   * @param nodes every known datanode (unusable ones are skipped)
   * @param usedSets member sets of the open pipelines of this factor
   */
  public Placement place(ReplicationFactor factor, Collection<PlacementNode> nodes, Set<Set<UUID>> usedSets)
      throws ScmException {
    List<PlacementNode> usable = nodes.stream().filter(n -> n.usable() && n.raftLogDisks() > 0).toList();
    int needed = factor == ReplicationFactor.ONE ? 1 : 3;
    if (usable.size() < needed) {
      throw new ScmException(ScmResult.NOT_ENOUGH_HEALTHY_NODES, "a " + factor + " pipeline needs " + needed
          + " usable datanodes (HEALTHY, with a healthy RaftLog disk and space); " + usable.size() + " are");
    }
    if (factor == ReplicationFactor.ONE) {
      return placeOne(usable, usedSets);
    }
    List<PlacementNode> free = usable.stream().filter(n -> room(n) > 0).sorted(byLoad()).toList();
    if (free.size() < needed) {
      throw new ScmException(ScmResult.PIPELINE_LIMIT_REACHED, (usable.size() - free.size()) + " of "
          + usable.size() + " usable datanodes are at their pipeline limit; " + free.size() + " have room, "
          + needed + " needed");
    }
    List<PlacementNode> chosen = chooseThree(free, usable, usedSets);
    return new Placement(chosen.stream().map(PlacementNode::id).toList(), leaderOf(chosen).id());
  }

  /**
   * A RATIS/ONE pipeline goes to a usable datanode that has none yet: one each, as in Ozone, outside the limits of
   * RATIS/THREE pipelines (a single-member group costs its node one small Raft log and no traffic to others).
   */
  private static Placement placeOne(List<PlacementNode> usable, Set<Set<UUID>> usedSets) throws ScmException {
    PlacementNode chosen = usable.stream().filter(n -> !usedSets.contains(Set.of(n.id())))
        .min(Comparator.comparing(PlacementNode::id)).orElseThrow(() -> new ScmException(
            ScmResult.PIPELINE_LIMIT_REACHED, "each of the " + usable.size() + " usable datanodes has its RATIS/ONE"
            + " pipeline"));
    return new Placement(List.of(chosen.id()), chosen.id());
  }

  private List<PlacementNode> chooseThree(List<PlacementNode> free, List<PlacementNode> usable,
      Set<Set<UUID>> usedSets) throws ScmException {
    boolean multiRack = usable.stream().map(PlacementNode::rack).distinct().count() > 1;
    List<List<PlacementNode>> trios = new ArrayList<>();
    for (PlacementNode anchor : leastLoaded(free)) {
      List<PlacementNode> others = free.stream().filter(n -> n != anchor).toList();
      if (!multiRack) {
        trios.addAll(trios(anchor, firstChoices(others), firstChoices(others)));
        continue;
      }
      List<PlacementNode> otherRacks = others.stream().filter(n -> !n.rack().equals(anchor.rack())).toList();
      List<PlacementNode> anchorRack = others.stream().filter(n -> n.rack().equals(anchor.rack())).toList();
      trios.addAll(trios(anchor, firstChoices(otherRacks), firstChoices(anchorRack.isEmpty() ? otherRacks
          : anchorRack)));
    }
    if (trios.isEmpty()) {
      throw new ScmException(ScmResult.NOT_ENOUGH_RACKS, "the " + free.size() + " datanodes with room left are"
          + " all on rack " + free.get(0).rack() + "; a pipeline must span two racks");
    }
    Map<UUID, Map<UUID, Integer>> together = pairsTogether(usedSets);
    trios.sort(Comparator.comparingDouble(t -> load(t.get(0)) + load(t.get(1)) + load(t.get(2))
        + PAIR_WEIGHT * (together(together, t.get(0), t.get(1)) + together(together, t.get(0), t.get(2))
        + together(together, t.get(1), t.get(2)))));
    return trios.stream().filter(t -> !usedSets.contains(idsOf(t))).findFirst().orElse(trios.get(0));
  }

  /** How many used sets hold each pair of nodes. */
  private static Map<UUID, Map<UUID, Integer>> pairsTogether(Set<Set<UUID>> usedSets) {
    Map<UUID, Map<UUID, Integer>> together = new HashMap<>();
    for (Set<UUID> set : usedSets) {
      for (UUID a : set) {
        for (UUID b : set) {
          if (!a.equals(b)) {
            together.computeIfAbsent(a, k -> new HashMap<>()).merge(b, 1, Integer::sum);
          }
        }
      }
    }
    return together;
  }

  private static int together(Map<UUID, Map<UUID, Integer>> together, PlacementNode a, PlacementNode b) {
    return together.getOrDefault(a.id(), Map.of()).getOrDefault(b.id(), 0);
  }

  /** The nodes tied for the least load: each may anchor, so an unused set can be found. */
  private List<PlacementNode> leastLoaded(List<PlacementNode> sortedByLoad) {
    double least = load(sortedByLoad.get(0));
    return firstChoices(sortedByLoad.stream().filter(n -> load(n) <= least + 1e-9).toList());
  }

  private static List<List<PlacementNode>> trios(PlacementNode anchor, List<PlacementNode> seconds,
      List<PlacementNode> thirds) {
    List<List<PlacementNode>> trios = new ArrayList<>();
    for (PlacementNode second : seconds) {
      for (PlacementNode third : thirds) {
        if (second != third) {
          trios.add(List.of(anchor, second, third));
        }
      }
    }
    return trios;
  }

  private static List<PlacementNode> firstChoices(List<PlacementNode> sortedByLoad) {
    return sortedByLoad.subList(0, Math.min(CHOICES_PER_PLACE, sortedByLoad.size()));
  }

  private static Set<UUID> idsOf(List<PlacementNode> nodes) {
    return nodes.stream().map(PlacementNode::id).collect(Collectors.toCollection(HashSet::new));
  }

  /** How many more RATIS/THREE pipelines {@code node} may join. */
  int room(PlacementNode node) {
    return Math.max(0, limits.limitOf(node) - node.pipelines());
  }

  /** Least-loaded first: the share of its limit the node would use with one more pipeline; then fewer pipelines. */
  private Comparator<PlacementNode> byLoad() {
    return Comparator.comparingDouble(this::load).thenComparingInt(PlacementNode::pipelines)
        .thenComparing(PlacementNode::id);
  }

  private double load(PlacementNode node) {
    return (node.pipelines() + 1.0) / limits.limitOf(node);
  }

  /** The member leading the fewest pipelines for its limit; then the fewest outright; then the anchor. */
  private PlacementNode leaderOf(List<PlacementNode> members) {
    return members.stream().min(Comparator.comparingDouble((PlacementNode n) -> (double) n.leaders()
        / limits.limitOf(n)).thenComparingInt(PlacementNode::leaders)).orElseThrow();
  }
}
