package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ScmResult;

class PipelinePlacementPolicyTest {
  private final Map<UUID, PlacementNode> cluster = new LinkedHashMap<>();
  private final Set<Set<UUID>> used = new HashSet<>();

  private UUID node(String rack, int disks) {
    return node(rack, disks, true);
  }

  private UUID node(String rack, int disks, boolean usable) {
    UUID id = new UUID(0, cluster.size() + 1);
    cluster.put(id, new PlacementNode(id, rack, disks, 0, 0, usable));
    return id;
  }

  /** Places one pipeline and records it in the fake cluster. */
  private Placement place(PipelinePlacementPolicy policy) throws ScmException {
    Placement p = policy.place(ReplicationFactor.THREE, new ArrayList<>(cluster.values()), used);
    p.members().forEach(id -> cluster.put(id, cluster.get(id).withPipeline(id.equals(p.leader()))));
    used.add(Set.copyOf(p.members()));
    return p;
  }

  private Set<String> racksOf(Placement p) {
    return p.members().stream().map(id -> cluster.get(id).rack()).collect(Collectors.toSet());
  }

  @Test
  void threeReplicaPipelineIsTwoPlusOneAcrossRacks() throws ScmException {
    for (int i = 0; i < 6; i++) {
      node(i % 2 == 0 ? "/rack1" : "/rack2", 1);
    }
    Placement p = place(new PipelinePlacementPolicy(new PipelineLimits(3, 2, 0)));
    assertEquals(3, new HashSet<>(p.members()).size());
    assertEquals(2, racksOf(p).size());
    PlacementNode anchor = cluster.get(p.members().get(0));
    assertEquals(anchor.rack(), cluster.get(p.members().get(2)).rack(), "third on the anchor's rack");
    assertFalse(anchor.rack().equals(cluster.get(p.members().get(1)).rack()), "second on another rack");
  }

  @Test
  void fillsEveryNodeToItsLimitWithEachPipelineOnTwoRacks() throws ScmException {
    for (int i = 0; i < 6; i++) {
      node(i % 2 == 0 ? "/rack1" : "/rack2", 2);
    }
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(new PipelineLimits(3, 2, 0));
    List<Placement> placed = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      placed.add(place(policy));
    }
    placed.forEach(p -> assertEquals(2, racksOf(p).size()));
    cluster.values().forEach(n -> assertEquals(3, n.pipelines()));
    cluster.values().forEach(n -> assertTrue(n.leaders() <= 2, "suggested leaders spread: " + cluster));
    List<LeaderBalancer.Leadership> leadership = new ArrayList<>();
    placed.forEach(p -> leadership.add(new LeaderBalancer.Leadership(UUID.randomUUID(), p.members(), p.leader())));
    Map<UUID, Integer> leaders = new LinkedHashMap<>();
    cluster.keySet().forEach(id -> leaders.put(id, 0));
    Map<UUID, UUID> moved = new LinkedHashMap<>();
    LeaderBalancer.plan(leadership, Map.of()).forEach(t -> moved.put(t.pipeline(), t.to()));
    leadership.forEach(l -> leaders.merge(moved.getOrDefault(l.pipeline(), l.leader()), 1, Integer::sum));
    leaders.values().forEach(count -> assertEquals(1, count, "after balancing each node leads one: " + leaders));
    assertEquals(6, used.size(), "no set of nodes is used twice while others fit");
    ScmException e = assertThrows(ScmException.class, () -> place(policy));
    assertEquals(ScmResult.PIPELINE_LIMIT_REACHED, e.result());
  }

  @Test
  void threeNodesWithLimitMGetMPipelinesWithDifferentLeaders() throws ScmException {
    node("/rack1", 3);
    node("/rack1", 3);
    node("/rack2", 3);
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(new PipelineLimits(3, 2, 0));
    for (int i = 0; i < 3; i++) {
      place(policy);
    }
    cluster.values().forEach(n -> assertEquals(1, n.leaders()));
    assertEquals(ScmResult.PIPELINE_LIMIT_REACHED, assertThrows(ScmException.class, () -> place(policy)).result());
  }

  @Test
  void autoLimitFollowsTheRaftLogDisks() throws ScmException {
    UUID big = node("/rack1", 4);
    node("/rack1", 1);
    node("/rack2", 2);
    node("/rack2", 3);
    PipelineLimits auto = new PipelineLimits(0, 2, 0);
    assertEquals(8, auto.limitOf(cluster.get(big)));
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(auto);
    while (true) {
      try {
        place(policy);
      } catch (ScmException e) {
        break;
      }
    }
    cluster.values().forEach(n -> assertTrue(n.pipelines() <= auto.limitOf(n)));
    assertTrue(cluster.get(big).pipelines() > cluster.get(new UUID(0, 2)).pipelines(),
        "more disks, more pipelines");
  }

  @Test
  void unsatisfiablePlacementsSayWhyAndPlaceNothing() {
    node("/rack1", 1);
    node("/rack2", 1);
    UUID unusable = node("/rack1", 1, false);
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(new PipelineLimits(2, 2, 0));
    ScmException tooFew = assertThrows(ScmException.class, () -> place(policy));
    assertEquals(ScmResult.NOT_ENOUGH_HEALTHY_NODES, tooFew.result());
    assertTrue(tooFew.getMessage().contains("2 are"), tooFew.getMessage());
    cluster.put(unusable, new PlacementNode(unusable, "/rack1", 0, 0, 0, true));
    assertEquals(ScmResult.NOT_ENOUGH_HEALTHY_NODES,
        assertThrows(ScmException.class, () -> place(policy)).result(), "a node without RaftLog disk is unusable");
    cluster.values().forEach(n -> assertEquals(0, n.pipelines()));
  }

  @Test
  void roomLeftOnOneRackOnlyIsNotEnoughRacks() {
    UUID a = node("/rack1", 1);
    node("/rack1", 1);
    node("/rack1", 1);
    UUID b = node("/rack2", 1);
    cluster.put(b, new PlacementNode(b, "/rack2", 1, 2, 0, true));
    ScmException e = assertThrows(ScmException.class,
        () -> place(new PipelinePlacementPolicy(new PipelineLimits(2, 2, 0))));
    assertEquals(ScmResult.NOT_ENOUGH_RACKS, e.result());
    assertEquals(0, cluster.get(a).pipelines());
  }

  @Test
  void singleRackClusterUsesTheLeastLoadedNodes() throws ScmException {
    for (int i = 0; i < 4; i++) {
      node("/default-rack", 1);
    }
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(new PipelineLimits(3, 2, 0));
    for (int i = 0; i < 4; i++) {
      place(policy);
    }
    cluster.values().forEach(n -> assertEquals(3, n.pipelines()));
  }

  @Test
  void everyUsableNodeGetsOneSingleReplicaPipeline() throws ScmException {
    UUID a = node("/rack1", 1);
    UUID b = node("/rack2", 1);
    node("/rack2", 1, false);
    PipelinePlacementPolicy policy = new PipelinePlacementPolicy(new PipelineLimits(1, 2, 0));
    List<UUID> placed = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Placement p = policy.place(ReplicationFactor.ONE, cluster.values(), used);
      assertEquals(1, p.members().size());
      assertEquals(p.members().get(0), p.leader());
      used.add(Set.copyOf(p.members()));
      placed.add(p.leader());
    }
    assertEquals(Set.of(a, b), Set.copyOf(placed), "one each, the unusable node none");
    ScmException full = assertThrows(ScmException.class,
        () -> policy.place(ReplicationFactor.ONE, cluster.values(), used));
    assertEquals(ScmResult.PIPELINE_LIMIT_REACHED, full.result());
  }
}
