package org.tropos.scm.replication;

import org.tropos.proto.scm.ContainerHealth;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.scm.container.ContainerView;
import org.tropos.scm.container.Replica;
import org.tropos.scm.replication.ReplicationAction.Copy;
import org.tropos.scm.replication.ReplicationAction.Delete;
import org.tropos.scm.replication.ReplicationAction.ForceClose;
import org.tropos.scm.replication.ReplicationAction.ForgetEmpty;
import org.tropos.scm.replication.ReplicationAction.MarkClosed;
import org.tropos.scm.replication.ReplicationAction.QuasiClose;

/**
 * The replication planner on hand-made clusters of six datanodes, a, b, c on rack /r1 and d, e, f on /r2.
 */
class ReplicationPlannerTest {
  private static final long GB = 1L << 30;
  private final Map<String, ReplicaNode> nodes = new LinkedHashMap<>();
  private final List<InFlight> inFlight = new ArrayList<>();
  private ReplicationPlanner planner = new ReplicationPlanner(20, 0.75, 2);

  ReplicationPlannerTest() {
    for (String name : List.of("a", "b", "c", "d", "e", "f")) {
      node(name, NodeState.HEALTHY, NodeOperationalState.IN_SERVICE);
    }
  }

  private void node(String name, NodeState health, NodeOperationalState state) {
    String rack = "abc".contains(name) ? "/r1" : "/r2";
    nodes.put(name, new ReplicaNode(id(name), rack, health, state, 100 * GB));
  }

  private static UUID id(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes());
  }

  private String name(UUID id) {
    return nodes.keySet().stream().filter(n -> id(n).equals(id)).findFirst().orElseThrow();
  }

  private String rack(String name) {
    return nodes.get(name).rack();
  }

  private static Replica closed(String node) {
    return new Replica(id(node), ContainerState.CONTAINER_CLOSED, 100, GB, false);
  }

  private static Replica replica(String node, ContainerState state, long bcsid) {
    return new Replica(id(node), state, bcsid, GB, false);
  }

  private static ContainerView container(long id, ContainerState state, Replica... replicas) {
    return new ContainerView(id, state, 3, List.of(id("a"), id("b"), id("d")), List.of(replicas), true);
  }

  private static ContainerView closedOn(long id, String... holders) {
    return container(id, ContainerState.CONTAINER_CLOSED, List.of(holders).stream()
        .map(ReplicationPlannerTest::closed).toArray(Replica[]::new));
  }

  private ReplicationPlanner.Plan plan(ContainerView... containers) {
    Map<UUID, ReplicaNode> byId = new HashMap<>();
    nodes.values().forEach(n -> byId.put(n.id(), n));
    return planner.plan(List.of(containers), byId, inFlight);
  }

  private <T extends ReplicationAction> List<T> actions(ReplicationPlanner.Plan plan, Class<T> type) {
    return plan.actions().stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void aContainerWithThreeReplicasOnTwoRacksNeedsNothing() {
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"));
    assertEquals(ContainerHealth.HEALTHY, plan.health().get(1L));
    assertTrue(plan.actions().isEmpty());
  }

  @Test
  void aDeadNodesReplicaIsCopiedToTheRackThatLostIt() {
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"));
    assertEquals(ContainerHealth.UNDER_REPLICATED, plan.health().get(1L));
    Copy copy = actions(plan, Copy.class).get(0);
    assertEquals("/r2", rack(name(copy.target())), "the surviving replicas are both on /r1");
    assertEquals(Set.of("a", "b"), copy.sources().stream().map(this::name).collect(Collectors.toSet()));
    assertEquals(1, plan.actions().size());
  }

  @Test
  void aContainerWithOneReplicaLeftGetsTwoCopiesOnBothRacksAndNeverOnAHolder() {
    node("b", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"));
    List<String> targets = actions(plan, Copy.class).stream().map(c -> name(c.target())).toList();
    assertEquals(2, targets.size());
    assertFalse(targets.contains("a") || targets.contains("b") || targets.contains("d"));
    assertTrue(targets.stream().anyMatch(t -> rack(t).equals("/r2")), "the copies span both racks: " + targets);
  }

  @Test
  void aStaleNodesReplicaStillCountsAndNothingIsSentToIt() {
    node("d", NodeState.STALE, NodeOperationalState.IN_SERVICE);
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"),
        container(2, ContainerState.CONTAINER_CLOSED, closed("a"), closed("b"), closed("c"),
            new Replica(id("d"), ContainerState.CONTAINER_UNHEALTHY, 100, GB, false), closed("e")));
    assertEquals(ContainerHealth.HEALTHY, plan.health().get(1L));
    assertTrue(plan.actions().stream().noneMatch(a -> a instanceof Delete d && d.node().equals(id("d"))),
        "no deletion is sent to a STALE node");
  }

  @Test
  void theContainerWithFewerReplicasLeftIsCopiedFirst() {
    planner = new ReplicationPlanner(1, 0, 2);
    for (String dead : List.of("d", "e", "f")) {
      node(dead, NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    }
    // Only b and c can receive, one copy each at a time.
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"), closedOn(2, "a", "d", "e"));
    List<Copy> copies = actions(plan, Copy.class);
    assertEquals(2, copies.size());
    assertTrue(copies.stream().allMatch(c -> c.containerId() == 2), "container 2 has one replica left, container 1"
        + " two: " + copies);
    assertEquals(ContainerHealth.UNDER_REPLICATED, plan.health().get(1L));
  }

  @Test
  void theClusterLimitCapsCopiesAcrossContainers() {
    planner = new ReplicationPlanner(1, 0.5, 2);
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    // 5 healthy nodes x 1 x 0.5 = 2 copies in the cluster at once.
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"), closedOn(2, "a", "c", "d"),
        closedOn(3, "b", "c", "d"));
    assertEquals(2, actions(plan, Copy.class).size());
  }

  @Test
  void copiesUnderWayCountAndLoadTheirTargets() {
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    inFlight.add(new InFlight(1, id("e"), InFlight.Kind.COPY, id("a"), 0));
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"), closedOn(2, "a", "b", "d"));
    List<Copy> copies = actions(plan, Copy.class);
    assertEquals(1, copies.size(), "container 1's copy is under way");
    assertEquals("f", name(copies.get(0).target()), "e is already receiving a copy");
  }

  @Test
  void sourcesAreSpreadOverEveryHolder() {
    node("f", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    List<ContainerView> containers = new ArrayList<>();
    for (long id = 1; id <= 20; id++) {
      containers.add(closedOn(id, "a", "d", "f"));
    }
    ReplicationPlanner.Plan plan = plan(containers.toArray(ContainerView[]::new));
    Map<String, Long> firstSources = actions(plan, Copy.class).stream()
        .collect(Collectors.groupingBy(c -> name(c.sources().get(0)), Collectors.counting()));
    assertEquals(Map.of("a", 10L, "d", 10L), firstSources);
    Map<String, Long> targets = actions(plan, Copy.class).stream()
        .collect(Collectors.groupingBy(c -> name(c.target()), Collectors.counting()));
    assertTrue(targets.values().stream().allMatch(n -> n <= 7), "targets spread: " + targets);
  }

  @Test
  void anExtraReplicaIsDeletedFromTheCrowdedRack() {
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "c", "d"));
    assertEquals(ContainerHealth.OVER_REPLICATED, plan.health().get(1L));
    List<Delete> deletes = actions(plan, Delete.class);
    assertEquals(1, deletes.size());
    assertEquals("/r1", rack(name(deletes.get(0).node())));
  }

  @Test
  void aCorruptReplicaIsReplacedBeforeItIsDeleted() {
    Replica bad = new Replica(id("d"), ContainerState.CONTAINER_CLOSED, 100, GB, true);
    ContainerView before = container(1, ContainerState.CONTAINER_CLOSED, closed("a"), closed("b"), bad);
    ReplicationPlanner.Plan first = plan(before);
    assertEquals(ContainerHealth.UNDER_REPLICATED, first.health().get(1L));
    Copy copy = actions(first, Copy.class).get(0);
    assertTrue(actions(first, Delete.class).isEmpty(), "the corrupt replica stays until a copy replaces it");
    assertFalse(copy.sources().contains(id("d")), "never copied from");
    assertEquals("/r2", rack(name(copy.target())));

    inFlight.add(new InFlight(1, copy.target(), InFlight.Kind.COPY, id("a"), 0));
    assertTrue(actions(plan(before), Delete.class).isEmpty(), "not while the copy is under way");
    inFlight.clear();

    ReplicationPlanner.Plan after = plan(container(1, ContainerState.CONTAINER_CLOSED, closed("a"), closed("b"),
        bad, closed(name(copy.target()))));
    assertEquals(ContainerHealth.UNHEALTHY_REPLICAS, after.health().get(1L));
    assertEquals(List.of(new Delete(1, id("d"))), after.actions());
  }

  @Test
  void anOutdatedReplicaOfAClosedContainerIsDeletedAndAnEquallyCompleteOneClosed() {
    ReplicationPlanner.Plan plan = plan(container(1, ContainerState.CONTAINER_CLOSED, closed("a"), closed("b"),
        closed("d"), replica("e", ContainerState.CONTAINER_QUASI_CLOSED, 90),
        replica("f", ContainerState.CONTAINER_QUASI_CLOSED, 100)));
    assertTrue(plan.actions().contains(new Delete(1, id("e"))));
    assertTrue(plan.actions().contains(new ForceClose(1, id("f"))));
  }

  @Test
  void aContainerOnOneRackGainsTheOther() {
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "c"));
    assertEquals(ContainerHealth.MIS_REPLICATED, plan.health().get(1L));
    assertEquals("/r2", rack(name(actions(plan, Copy.class).get(0).target())));
    ReplicationPlanner.Plan then = plan(closedOn(1, "a", "b", "c", "e"));
    assertEquals("/r1", rack(name(actions(then, Delete.class).get(0).node())));
  }

  @Test
  void onASingleRackClusterThreeReplicasOnOneRackAreHealthy() {
    nodes.replaceAll((name, n) -> new ReplicaNode(n.id(), "/r1", n.health(), n.operationalState(), n.freeBytes()));
    assertEquals(ContainerHealth.HEALTHY, plan(closedOn(1, "a", "b", "c")).health().get(1L));
  }

  @Test
  void aDecommissioningNodesReplicaIsCopiedFromItButDoesNotCount() {
    node("d", NodeState.HEALTHY, NodeOperationalState.DECOMMISSIONING);
    node("e", NodeState.HEALTHY, NodeOperationalState.DECOMMISSIONING);
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "d", "e"));
    List<Copy> copies = actions(plan, Copy.class);
    assertEquals(2, copies.size());
    assertTrue(copies.stream().map(c -> name(c.target())).allMatch(t -> List.of("b", "c", "f").contains(t)));
    assertEquals(Set.of("a", "d", "e"), copies.get(0).sources().stream().map(this::name).collect(Collectors.toSet()));
    assertTrue(copies.stream().anyMatch(c -> name(c.target()).equals("f")), "one copy stays on /r2");
    assertTrue(actions(plan(closedOn(1, "a", "d", "e", "b", "f")), Delete.class).isEmpty(),
        "a leaving node's replica is not an extra");
  }

  @Test
  void aContainerWithNoLiveReplicaIsMissing() {
    node("a", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    node("b", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    ReplicationPlanner.Plan plan = plan(container(1, ContainerState.CONTAINER_CLOSED, closed("a"), closed("b"),
        new Replica(id("d"), ContainerState.CONTAINER_CLOSED, 100, GB, true)));
    assertEquals(ContainerHealth.MISSING, plan.health().get(1L));
    assertTrue(plan.actions().isEmpty(), "the corrupt replica is all that is left: it is kept");
  }

  @Test
  void aQuasiClosedContainerIsClosedByItsMostCompleteReplica() {
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    ReplicationPlanner.Plan plan = plan(container(1, ContainerState.CONTAINER_QUASI_CLOSED,
        replica("a", ContainerState.CONTAINER_QUASI_CLOSED, 10), replica("b", ContainerState.CONTAINER_QUASI_CLOSED, 12)));
    assertEquals(List.of(new ForceClose(1, id("b"))), plan.actions());
    assertEquals(ContainerHealth.QUASI_CLOSED, plan.health().get(1L));

    ReplicationPlanner.Plan closed = plan(container(1, ContainerState.CONTAINER_QUASI_CLOSED,
        replica("a", ContainerState.CONTAINER_QUASI_CLOSED, 10), replica("b", ContainerState.CONTAINER_CLOSED, 12)));
    assertEquals(List.of(new MarkClosed(1)), closed.actions());
  }

  /**
   * The replica holding a container's last committed write is away (its node DEAD) or damaged: a shorter replica
   * is neither closed nor copied, whatever the live ones say; the container is MISSING until the whole one is back.
   */
  @Test
  void noReplicaBelowTheHighestBcsidEverReportedIsClosedOrCopied() {
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    ContainerView quasi = new ContainerView(1, ContainerState.CONTAINER_QUASI_CLOSED, 3,
        List.of(id("a"), id("b"), id("d")), List.of(replica("a", ContainerState.CONTAINER_QUASI_CLOSED, 10),
            replica("b", ContainerState.CONTAINER_UNHEALTHY, 12)), true, 12);
    assertEquals(List.of(), plan(quasi).actions());
    assertEquals(ContainerHealth.MISSING, plan(quasi).health().get(1L));

    ContainerView closed = new ContainerView(1, ContainerState.CONTAINER_CLOSED, 3,
        List.of(id("a"), id("b"), id("d")), List.of(replica("a", ContainerState.CONTAINER_CLOSED, 10)), true, 12);
    assertEquals(List.of(), plan(closed).actions(), "a copy of a would spread a replica short of blocks");
    assertEquals(ContainerHealth.MISSING, plan(closed).health().get(1L));

    node("d", NodeState.HEALTHY, NodeOperationalState.IN_SERVICE);
    ContainerView back = new ContainerView(1, ContainerState.CONTAINER_QUASI_CLOSED, 3,
        List.of(id("a"), id("b"), id("d")), List.of(replica("a", ContainerState.CONTAINER_QUASI_CLOSED, 10),
            replica("d", ContainerState.CONTAINER_QUASI_CLOSED, 12)), true, 12);
    assertEquals(List.of(new ForceClose(1, id("d"))), plan(back).actions(), "closed by the whole one");
  }

  /**
   * Forgotten once enough members reported without it that a block acknowledged by a majority would have been
   * among what they reported: all of them, or all but a DEAD one (lost for good, it would otherwise keep the
   * container MISSING for ever); not while a member is STALE, nor with a majority DEAD.
   */
  @Test
  void aQuasiClosedContainerNeverWrittenIsForgottenOnceEnoughMembersReportWithoutIt() {
    ContainerView never = new ContainerView(1, ContainerState.CONTAINER_QUASI_CLOSED, 3,
        List.of(id("a"), id("b"), id("d")), List.of(), false);
    assertEquals(List.of(new ForgetEmpty(1)), plan(never).actions());
    ContainerView lost = new ContainerView(1, ContainerState.CONTAINER_QUASI_CLOSED, 3,
        List.of(id("a"), id("b"), id("d")), List.of(), true);
    assertEquals(List.of(), plan(lost).actions(), "a replica was once reported: its loss is MISSING, not forgotten");
    assertEquals(ContainerHealth.MISSING, plan(lost).health().get(1L));
    node("d", NodeState.STALE, NodeOperationalState.IN_SERVICE);
    assertEquals(List.of(), plan(never).actions(), "d may hold it and not have said so yet");
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    assertEquals(List.of(new ForgetEmpty(1)), plan(never).actions(), "a and b would hold an acknowledged block");
    node("b", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    assertEquals(List.of(), plan(never).actions(), "b and d, a majority, may hold one and cannot say");
  }

  /** A member still in the pipeline's group may yet apply a write it has not reported: its silence proves nothing. */
  @Test
  void aContainerIsNotForgottenWhileMembersMayStillApplyItsWrites() {
    List<UUID> members = List.of(id("a"), id("b"), id("d"));
    ContainerView stillIn = new ContainerView(1, ContainerState.CONTAINER_QUASI_CLOSED, 3, members, List.of(),
        false, 0, Set.of(id("a")));
    assertEquals(List.of(), plan(stillIn).actions(), "b and d have not left the group yet");
    ContainerView left = new ContainerView(1, ContainerState.CONTAINER_QUASI_CLOSED, 3, members, List.of(), false,
        0, Set.of(id("a"), id("d")));
    assertEquals(List.of(new ForgetEmpty(1)), plan(left).actions(), "a and d left without it: no majority wrote");
  }

  @Test
  void aQuasiClosedContainerWaitsForAStaleMemberAndReclosesAnOpenReplica() {
    node("d", NodeState.STALE, NodeOperationalState.IN_SERVICE);
    ContainerView c = container(1, ContainerState.CONTAINER_QUASI_CLOSED,
        replica("a", ContainerState.CONTAINER_QUASI_CLOSED, 10), replica("b", ContainerState.CONTAINER_OPEN, 12));
    assertEquals(List.of(new QuasiClose(1, id("b"))), plan(c).actions(), "nothing is closed while d is STALE");
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    assertEquals(List.of(new QuasiClose(1, id("b"))), plan(c).actions(), "nor while b is still open");
  }

  @Test
  void openContainersAreLeftToRaft() {
    node("d", NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    ReplicationPlanner.Plan plan = plan(container(1, ContainerState.CONTAINER_OPEN,
        replica("a", ContainerState.CONTAINER_OPEN, 5), replica("b", ContainerState.CONTAINER_OPEN, 5)));
    assertEquals(ContainerHealth.OPEN, plan.health().get(1L));
    assertTrue(plan.actions().isEmpty());
  }

  @Test
  void onAClusterWithNoFreeNodeAnUnhealthyReplicaMakesRoomForAHealthyOne() {
    for (String gone : List.of("c", "e", "f")) {
      node(gone, NodeState.DEAD, NodeOperationalState.IN_SERVICE);
    }
    ContainerView c = container(1, ContainerState.CONTAINER_CLOSED, closed("a"), closed("b"),
        replica("d", ContainerState.CONTAINER_UNHEALTHY, 100));
    assertEquals(List.of(new Delete(1, id("d"))), plan(c).actions());
    inFlight.add(new InFlight(1, id("d"), InFlight.Kind.DELETE, null, 0));
    assertTrue(plan(c).actions().isEmpty(), "one at a time");
    inFlight.clear();
    Copy copy = actions(plan(closedOn(1, "a", "b")), Copy.class).get(0);
    assertEquals("d", name(copy.target()));
  }

  @Test
  void aNodeInMaintenanceKeepsItsReplicasCountedWhileTwoAreInService() {
    node("d", NodeState.DEAD, NodeOperationalState.IN_MAINTENANCE);
    assertEquals(ContainerHealth.HEALTHY, plan(closedOn(1, "a", "b", "d")).health().get(1L),
        "two replicas in service and one in maintenance: nothing to do");
    node("b", NodeState.HEALTHY, NodeOperationalState.IN_MAINTENANCE);
    ReplicationPlanner.Plan plan = plan(closedOn(1, "a", "b", "d"));
    assertEquals(ContainerHealth.UNDER_REPLICATED, plan.health().get(1L));
    assertEquals(1, actions(plan, Copy.class).size(), "one more in service makes the minimum of two");
  }
}
