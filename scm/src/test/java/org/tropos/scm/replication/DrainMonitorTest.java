package org.tropos.scm.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.scm.container.ContainerView;
import org.tropos.scm.container.Replica;

/** When draining datanodes are done, on nodes a, b, c, d. */
class DrainMonitorTest {
  private final DrainMonitor monitor = new DrainMonitor(2);
  private final Map<UUID, ReplicaNode> nodes = new HashMap<>();
  private final Map<UUID, Long> ends = new HashMap<>();

  DrainMonitorTest() {
    for (String n : List.of("a", "b", "c", "d")) {
      state(n, NodeOperationalState.IN_SERVICE);
    }
  }

  private void state(String name, NodeOperationalState state) {
    nodes.put(id(name), new ReplicaNode(id(name), "/r1", NodeState.HEALTHY, state, 1L << 40));
  }

  private static UUID id(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes());
  }

  private static ContainerView closedOn(long id, String... holders) {
    return new ContainerView(id, ContainerState.CONTAINER_CLOSED, 3, List.of(id("a"), id("b"), id("c")),
        List.of(holders).stream().map(h -> new Replica(id(h), ContainerState.CONTAINER_CLOSED, 9, 1, false))
            .toList(), true);
  }

  private List<DrainMonitor.Transition> check(ContainerView... containers) {
    return monitor.transitions(List.of(containers), nodes, ends, 1_000_000);
  }

  @Test
  void aDecommissioningNodeIsDoneOnceItsContainersHaveThreeReplicasElsewhere() {
    state("a", NodeOperationalState.DECOMMISSIONING);
    assertTrue(check(closedOn(1, "a", "b", "c")).isEmpty());
    assertEquals(List.of(new DrainMonitor.Transition(id("a"), NodeOperationalState.DECOMMISSIONED)),
        check(closedOn(1, "a", "b", "c", "d")));
  }

  @Test
  void aDecommissioningNodeWaitsForAContainerItWasWriting() {
    state("a", NodeOperationalState.DECOMMISSIONING);
    ContainerView quasi = new ContainerView(2, ContainerState.CONTAINER_QUASI_CLOSED, 3,
        List.of(id("a"), id("b"), id("c")), List.of(), true);
    assertTrue(check(quasi).isEmpty());
  }

  @Test
  void maintenanceNeedsTwoReplicasInServiceAndEndsAtItsTime() {
    state("a", NodeOperationalState.ENTERING_MAINTENANCE);
    state("b", NodeOperationalState.IN_MAINTENANCE);
    assertTrue(check(closedOn(1, "a", "b", "c")).isEmpty(), "only c is in service");
    List<DrainMonitor.Transition> moves = check(closedOn(1, "a", "b", "c", "d"));
    assertTrue(moves.contains(new DrainMonitor.Transition(id("a"), NodeOperationalState.IN_MAINTENANCE)), "" + moves);
    assertTrue(moves.stream().noneMatch(m -> m.node().equals(id("b"))), "b's maintenance has no end");
    ends.put(id("b"), 999_999L);
    assertTrue(check(closedOn(1, "c", "d")).contains(new DrainMonitor.Transition(id("b"),
        NodeOperationalState.IN_SERVICE)));
  }
}
