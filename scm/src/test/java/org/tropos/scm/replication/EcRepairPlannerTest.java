package org.tropos.scm.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.scm.container.EcContainerView;
import org.tropos.scm.container.EcContainerView.IndexReplica;

class EcRepairPlannerTest {
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-1024k");
  private static final long GB = 1L << 30;
  private final EcRepairPlanner planner = new EcRepairPlanner(2);
  /** n1..n8: odd ones on /r1, even ones on /r2. */
  private final Map<UUID, ReplicaNode> nodes = new HashMap<>();

  EcRepairPlannerTest() {
    for (int i = 1; i <= 8; i++) {
      set(i, NodeState.HEALTHY, NodeOperationalState.IN_SERVICE);
    }
  }

  @Test
  void anIndexLostWithItsNodeIsRebuiltFromTheOthersOnTheRackHoldingFewest() {
    set(3, NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    EcRepairPlanner.Plan plan = planner.plan(List.of(closed(1, 2, 3, 4, 5)), nodes, List.of());
    assertEquals(ContainerHealth.UNDER_REPLICATED, plan.health().get(7L));
    assertEquals(1, plan.actions().size());
    EcRepair rebuild = plan.actions().get(0);
    assertEquals(3, rebuild.index());
    assertEquals(Map.of(1, node(1), 2, node(2), 4, node(4), 5, node(5)), rebuild.sources());
    assertFalse(rebuild.isCopy() || rebuild.isDelete());
    // Indexes left: n1, n5 on /r1 (n3 is dead), n2, n4 on /r2: a tie, so by room (equal), then id.
    assertEquals(node(6), rebuild.target());
    set(6, NodeState.HEALTHY, NodeOperationalState.DECOMMISSIONING);
    set(2, NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    List<EcRepair> two = planner.plan(List.of(closed(1, 2, 3, 4, 5)), nodes, List.of()).actions();
    assertEquals(List.of(2, 3), two.stream().map(EcRepair::index).toList());
    assertEquals(node(8), two.get(0).target(), "/r2 holds one index (n4), /r1 two (n1, n5); n6 is leaving");
    assertEquals(node(7), two.get(1).target(), "then two each: by id among the nodes left");
    set(6, NodeState.HEALTHY, NodeOperationalState.IN_SERVICE);
    set(2, NodeState.HEALTHY, NodeOperationalState.IN_SERVICE);

    assertTrue(planner.plan(List.of(closed(1, 2, 3, 4, 5)), nodes, List.of(rebuild.sent(1))).actions().isEmpty(),
        "not planned again while under way");
  }

  @Test
  void withFewerThanDataIndexesNothingCanBeDone() {
    for (int i : new int[] {1, 2, 3}) {
      set(i, NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    }
    EcRepairPlanner.Plan plan = planner.plan(List.of(closed(1, 2, 3, 4, 5)), nodes, List.of());
    assertEquals(ContainerHealth.MISSING, plan.health().get(7L));
    assertTrue(plan.actions().isEmpty());
  }

  @Test
  void anIndexOnADecommissioningNodeIsCopiedOffAndTheNodeDrainsOnlyThen() {
    set(2, NodeState.HEALTHY, NodeOperationalState.DECOMMISSIONING);
    EcContainerView c = closed(1, 2, 3, 4, 5);
    EcRepairPlanner.Plan plan = planner.plan(List.of(c), nodes, List.of());
    assertEquals(1, plan.actions().size());
    EcRepair copy = plan.actions().get(0);
    assertTrue(copy.isCopy());
    assertEquals(Map.of(2, node(2)), copy.sources());
    assertFalse(EcRepairPlanner.drained(node(2), List.of(c), nodes, false));
    assertTrue(EcRepairPlanner.drained(node(2), List.of(c), nodes, true), "maintenance: its index comes back");

    List<IndexReplica> copied = new ArrayList<>(c.replicas());
    copied.add(new IndexReplica(copy.target(), 2, ContainerState.CONTAINER_CLOSED, GB, false));
    EcContainerView after = new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2, copied);
    assertTrue(EcRepairPlanner.drained(node(2), List.of(after), nodes, false));
    assertEquals(ContainerHealth.HEALTHY, planner.plan(List.of(after), nodes, List.of()).health().get(7L));
  }

  @Test
  void anIndexHeldTwiceLosesItsExtraAndACorruptOneIsRebuilt() {
    List<IndexReplica> replicas = new ArrayList<>(closed(1, 2, 3, 4, 5).replicas());
    replicas.add(new IndexReplica(node(6), 4, ContainerState.CONTAINER_CLOSED, GB, false));
    EcRepairPlanner.Plan plan = planner.plan(List.of(new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2,
        replicas)), nodes, List.of());
    assertEquals(ContainerHealth.OVER_REPLICATED, plan.health().get(7L));
    assertEquals(List.of(EcRepair.delete(7, RS_3_2, 4, node(6))), plan.actions());

    replicas = new ArrayList<>(closed(1, 2, 3, 4).replicas());
    replicas.add(new IndexReplica(node(5), 5, ContainerState.CONTAINER_CLOSED, GB, true));
    plan = planner.plan(List.of(new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2, replicas)), nodes,
        List.of());
    assertEquals(5, plan.actions().get(0).index(), "a replica found corrupt does not hold its index");
  }

  @Test
  void aDamagedReplicaIsRebuiltElsewhereFirstAndDeletedOnlyThen() {
    List<IndexReplica> replicas = new ArrayList<>(closed(1, 2, 4, 5).replicas());
    replicas.add(new IndexReplica(node(3), 3, ContainerState.CONTAINER_UNHEALTHY, GB, false));
    EcRepairPlanner.Plan plan = planner.plan(List.of(new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2,
        replicas)), nodes, List.of());
    assertEquals(1, plan.actions().size(), "the index rebuilt; its damaged replica kept meanwhile");
    EcRepair rebuild = plan.actions().get(0);
    assertEquals(3, rebuild.index());
    assertFalse(rebuild.isDelete());
    assertTrue(planner.plan(List.of(new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2, replicas)),
        nodes, List.of(rebuild.sent(1))).actions().isEmpty(), "nothing more while the rebuild is under way");

    replicas.add(new IndexReplica(rebuild.target(), 3, ContainerState.CONTAINER_CLOSED, GB, false));
    plan = planner.plan(List.of(new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2, replicas)), nodes,
        List.of());
    assertEquals(List.of(EcRepair.delete(7, RS_3_2, 3, node(3))), plan.actions());
    assertEquals(ContainerHealth.OVER_REPLICATED, plan.health().get(7L));
  }

  @Test
  void aTargetTakesNoMoreThanItsLimit() {
    List<EcContainerView> containers = new ArrayList<>();
    for (long id = 1; id <= 10; id++) {
      containers.add(new EcContainerView(id, ContainerState.CONTAINER_CLOSED, RS_3_2, closed(1, 2, 3, 4).replicas()));
    }
    EcRepairPlanner.Plan plan = planner.plan(containers, nodes, List.of());
    Map<UUID, Integer> perTarget = new HashMap<>();
    plan.actions().forEach(a -> perTarget.merge(a.target(), 1, Integer::sum));
    assertEquals(8, plan.actions().size(), "four free nodes, two each");
    assertTrue(perTarget.values().stream().allMatch(n -> n == 2), perTarget.toString());
  }

  /** Container 7, CLOSED, index i on node n_i for each of {@code indexes}. */
  private static EcContainerView closed(int... indexes) {
    List<IndexReplica> replicas = new ArrayList<>();
    for (int i : indexes) {
      replicas.add(new IndexReplica(node(i), i, ContainerState.CONTAINER_CLOSED, GB, false));
    }
    return new EcContainerView(7, ContainerState.CONTAINER_CLOSED, RS_3_2, replicas);
  }

  private void set(int i, NodeState state, NodeOperationalState operational) {
    nodes.put(node(i), new ReplicaNode(node(i), i % 2 == 1 ? "/r1" : "/r2", state, operational, 100 * GB));
  }

  private static UUID node(int i) {
    return new UUID(0, i);
  }
}
