package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.scm.node.NodeStatus;

class NodeCapacityTest {
  private static final long GB = 1L << 30;

  private static NodeStatus node(NodeReport report) {
    return new NodeStatus(UUID.randomUUID(), DatanodeDetails.getDefaultInstance(), NodeState.HEALTHY, report, 0,
        NodeOperationalState.IN_SERVICE, 0, true);
  }

  private static NodeReport volume(long available, long reserved) {
    return NodeReport.newBuilder().addVolumes(VolumeReport.newBuilder().setState(StorageState.NORMAL)
        .setCapacityBytes(100 * GB).setAvailableBytes(available).setReservedBytes(reserved)).build();
  }

  @Test
  void aVolumeWithNoMoreThanItsReserveFreeHasNoRoom() {
    assertTrue(NodeCapacity.hasDataRoom(node(volume(5 * GB + 1, 5 * GB))));
    assertFalse(NodeCapacity.hasDataRoom(node(volume(5 * GB, 5 * GB))));
    assertFalse(NodeCapacity.hasDataRoom(node(NodeReport.getDefaultInstance())));
  }

  /** Full only when enough datanodes have reported their volumes and too few of those have room. */
  @Test
  void theClusterIsShortOfRoomOnlyWithEnoughReportedNodesLackingIt() {
    NodeStatus full = node(volume(GB, 5 * GB));
    NodeStatus roomy = node(volume(50 * GB, 5 * GB));
    NodeStatus unreported = node(NodeReport.getDefaultInstance());
    assertTrue(NodeCapacity.shortOfRoom(List.of(full, full, roomy), 3));
    assertFalse(NodeCapacity.shortOfRoom(List.of(roomy, roomy, roomy), 3));
    assertFalse(NodeCapacity.shortOfRoom(List.of(full, unreported, unreported), 3), "reports still to come");
    assertTrue(NodeCapacity.shortOfRoom(List.of(full), 1));
    assertFalse(NodeCapacity.shortOfRoom(List.of(full, roomy, roomy), 1));
  }
}
