package org.tropos.scm.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Preconditions;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ScmResult;

/**
 * Fills a simulated cluster with RATIS/THREE pipelines using the real {@link PipelinePlacementPolicy} and
 * {@link LeaderBalancer}, checking the invariants after every placement (distinct members, limits kept), and
 * measures the outcome. Deterministic for a seed; used by the unit tests and by {@code tropos bench placement}.
 */
public final class PlacementSimulation {
  /**
   * A simulated cluster.
   *
   * @param nodes datanodes
   * @param racks racks (nodes are dealt to them in turn)
   * @param minDisks fewest RaftLog disks of a node
   * @param maxDisks most RaftLog disks of a node (equal to minDisks for equal nodes)
   * @param limits the pipeline limits
   * @param seed seeds the disk counts and node ids
   */
  public record Spec(int nodes, int racks, int minDisks, int maxDisks, PipelineLimits limits, long seed) {
    public boolean unequalDisks() {
      return minDisks != maxDisks;
    }
  }

  /**
   * What a simulation produced.
   *
   * @param pipelines pipelines created
   * @param ideal ⌊Σ node limits / 3⌋ (⌊M·N/3⌋ with a fixed limit M)
   * @param stoppedBy the placement error that ended the fill
   * @param maxShareDeviation largest |pipelines of a node − its share of all pipelines by limit|
   */
  public record Result(Spec spec, int pipelines, int ideal, int pipelinesPerNodeMin, int pipelinesPerNodeMax,
      int leadersPerNodeMin, int leadersPerNodeMax, int leadersBeforeBalancingMin, int leadersBeforeBalancingMax,
      int leaderTransfers, int rackViolations, double maxShareDeviation, double placementMicrosPerPipeline,
      ScmResult stoppedBy) {

    /** Each node holds its share of the pipelines in proportion to its limit (hence its disks), ±1. */
    public boolean proportionalToDisks() {
      return maxShareDeviation <= 1.0 + 1e-9;
    }
  }

  private final Spec spec;
  private final Clock clock;
  private final Map<UUID, PlacementNode> nodes = new LinkedHashMap<>();
  private final Set<Set<UUID>> usedSets = new HashSet<>();
  private final List<LeaderBalancer.Leadership> pipelines = new ArrayList<>();
  private int rackViolations;

  public PlacementSimulation(Spec spec, Clock clock) {
    this.spec = spec;
    this.clock = clock;
    Random random = new Random(spec.seed());
    for (int i = 0; i < spec.nodes(); i++) {
      UUID id = new UUID(random.nextLong(), random.nextLong());
      int disks = spec.minDisks() + random.nextInt(spec.maxDisks() - spec.minDisks() + 1);
      nodes.put(id, new PlacementNode(id, "/rack" + (i % spec.racks() + 1), disks, 0, 0, true));
    }
  }

  public Result run() {
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(spec.limits());
    ScmResult stoppedBy = ScmResult.OK;
    long started = clock.monotonicNanos();
    while (spec.limits().clusterWide() == 0 || pipelines.size() < spec.limits().clusterWide()) {
      try {
        record(policy.place(ReplicationFactor.THREE, nodes.values(), usedSets));
      } catch (ScmException e) {
        stoppedBy = e.result();
        break;
      }
    }
    double micros = pipelines.isEmpty() ? 0 : (clock.monotonicNanos() - started) / 1000.0 / pipelines.size();
    if (spec.limits().clusterWide() > 0 && pipelines.size() == spec.limits().clusterWide()) {
      stoppedBy = ScmResult.PIPELINE_LIMIT_REACHED;
    }
    return measure(stoppedBy, micros);
  }

  private void record(Placement placement) {
    List<UUID> members = placement.members();
    Preconditions.assertTrue(new HashSet<>(members).size() == members.size(), "members repeat: {}", members);
    Set<String> racks = new HashSet<>();
    for (UUID id : members) {
      PlacementNode node = nodes.get(id).withPipeline(id.equals(placement.leader()));
      Preconditions.assertTrue(node.pipelines() <= spec.limits().limitOf(node), "node {} over its limit", id);
      nodes.put(id, node);
      racks.add(node.rack());
    }
    if (spec.racks() > 1 && racks.size() < 2) {
      rackViolations++;
    }
    usedSets.add(Set.copyOf(members));
    pipelines.add(new LeaderBalancer.Leadership(new UUID(0, pipelines.size()), members, placement.leader()));
  }

  private Result measure(ScmResult stoppedBy, double micros) {
    Map<UUID, Integer> limitOf = new HashMap<>();
    nodes.values().forEach(n -> limitOf.put(n.id(), spec.limits().limitOf(n)));
    int totalLimit = limitOf.values().stream().mapToInt(Integer::intValue).sum();
    IntSummaryStatistics perNode = nodes.values().stream().mapToInt(PlacementNode::pipelines).summaryStatistics();
    IntSummaryStatistics before = leadersPerNode(Map.of());
    List<LeaderBalancer.Transfer> transfers = LeaderBalancer.plan(pipelines, limitOf);
    Map<UUID, UUID> moved = new HashMap<>();
    transfers.forEach(t -> moved.put(t.pipeline(), t.to()));
    IntSummaryStatistics after = leadersPerNode(moved);
    double deviation = nodes.values().stream().mapToDouble(n -> Math.abs(n.pipelines()
        - 3.0 * pipelines.size() * limitOf.get(n.id()) / totalLimit)).max().orElse(0);
    return new Result(spec, pipelines.size(), totalLimit / 3, perNode.getMin(), perNode.getMax(), after.getMin(),
        after.getMax(), before.getMin(), before.getMax(), transfers.size(), rackViolations, deviation, micros,
        stoppedBy);
  }

  private IntSummaryStatistics leadersPerNode(Map<UUID, UUID> movedLeaders) {
    Map<UUID, Integer> leaders = new HashMap<>();
    nodes.keySet().forEach(id -> leaders.put(id, 0));
    pipelines.forEach(p -> leaders.merge(movedLeaders.getOrDefault(p.pipeline(), p.leader()), 1, Integer::sum));
    return leaders.values().stream().mapToInt(Integer::intValue).summaryStatistics();
  }
}
