package org.tropos.scm.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.node.NodeStatus;

class EcPlacementTest {
  private static final long GB = 1L << 30;
  private static final EcReplication RS_6_3 = EcReplication.parse("rs-6-3-1024k");
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-1024k");

  @Test
  void nineNodesOnThreeRacksTakeThreeIndexesEachSoALostRackLosesAtMostParity() throws ScmException {
    List<NodeStatus> nodes = racks(3, 3, 3);
    assertEquals(Map.of("/r0", 3L, "/r1", 3L, "/r2", 3L), perRack(nodes, place(RS_6_3, nodes)));
    Map<String, Long> rs32 = perRack(nodes, place(RS_3_2, nodes));
    assertTrue(rs32.values().stream().allMatch(n -> n <= 2), "at most parity=2 indexes on a rack: " + rs32);
  }

  @Test
  void indexesGoToTheBiggerRacksFirstWhenRacksDiffer() throws ScmException {
    List<NodeStatus> nodes = racks(4, 4, 1);
    assertEquals(Map.of("/r0", 2L, "/r1", 2L, "/r2", 1L), perRack(nodes, place(RS_3_2, nodes)));
    // Nine indexes on nine nodes: the small rack cannot take its share, and the others hold the rest.
    assertEquals(Map.of("/r0", 4L, "/r1", 4L, "/r2", 1L), perRack(nodes, place(RS_6_3, nodes)));
  }

  @Test
  void theLeastLoadedNodesOfARackAreChosenAndTheMembersAreDistinct() throws ScmException {
    List<NodeStatus> nodes = racks(6);
    Map<UUID, Integer> load = nodes.stream().collect(Collectors.toMap(NodeStatus::id, n -> 1));
    load.put(nodes.get(2).id(), 5);
    List<UUID> members = EcPlacement.place(RS_3_2, nodes, Set.of(), load);
    assertEquals(5, Set.copyOf(members).size());
    assertFalse(members.contains(nodes.get(2).id()), "the busiest node is left out");
  }

  @Test
  void unusableAndExcludedNodesAreSkippedAndTooFewIsATypedError() {
    List<NodeStatus> nodes = new ArrayList<>(racks(3, 2));
    nodes.set(0, withState(nodes.get(0), NodeState.STALE));
    nodes.set(1, full(nodes.get(1)));
    ScmException e = assertThrows(ScmException.class,
        () -> EcPlacement.place(RS_3_2, nodes, Set.of(nodes.get(2).id()), Map.of()));
    assertEquals(ScmResult.NOT_ENOUGH_HEALTHY_NODES, e.result());
    assertTrue(e.getMessage().contains("needs 5 datanodes") && e.getMessage().contains("2 are outside"),
        e.getMessage());
  }

  private static List<UUID> place(EcReplication config, List<NodeStatus> nodes) throws ScmException {
    List<UUID> members = EcPlacement.place(config, nodes, Set.of(), Map.of());
    assertEquals(config.units(), Set.copyOf(members).size(), "one distinct datanode per index");
    return members;
  }

  private static Map<String, Long> perRack(List<NodeStatus> nodes, List<UUID> members) {
    return nodes.stream().filter(n -> members.contains(n.id()))
        .collect(Collectors.groupingBy(n -> n.details().getNetworkLocation(), Collectors.counting()));
  }

  /** Healthy roomy nodes, {@code sizes[r]} of them on rack /r{r}. */
  private static List<NodeStatus> racks(int... sizes) {
    List<NodeStatus> nodes = new ArrayList<>();
    for (int rack = 0; rack < sizes.length; rack++) {
      for (int i = 0; i < sizes[rack]; i++) {
        UUID id = new UUID(rack, i);
        nodes.add(new NodeStatus(id, DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id))
            .setNetworkLocation("/r" + rack).build(), NodeState.HEALTHY, room(50 * GB), 0,
            NodeOperationalState.IN_SERVICE, 0, true));
      }
    }
    return nodes;
  }

  private static NodeReport room(long available) {
    return NodeReport.newBuilder().addVolumes(VolumeReport.newBuilder().setState(StorageState.NORMAL)
        .setCapacityBytes(100 * GB).setAvailableBytes(available).setReservedBytes(GB)).build();
  }

  private static NodeStatus withState(NodeStatus n, NodeState state) {
    return new NodeStatus(n.id(), n.details(), state, n.lastReport(), 0, NodeOperationalState.IN_SERVICE, 0, true);
  }

  private static NodeStatus full(NodeStatus n) {
    return new NodeStatus(n.id(), n.details(), n.state(), room(GB), 0, NodeOperationalState.IN_SERVICE, 0, true);
  }
}
