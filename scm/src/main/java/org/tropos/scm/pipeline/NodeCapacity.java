package org.tropos.scm.pipeline;

import java.util.List;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.scm.node.NodeStatus;

/** What a datanode's last report says about its room for pipelines. */
public final class NodeCapacity {
  private NodeCapacity() {
  }

  static int healthyRaftLogDirs(NodeStatus node) {
    return (int) node.lastReport().getRaftLogDirsList().stream().filter(d -> d.getState() == StorageState.NORMAL)
        .count();
  }

  /** HEALTHY and in service, with a healthy RaftLog directory and room on a data volume. */
  static boolean canHostPipelines(NodeStatus node) {
    return node.state() == NodeState.HEALTHY && node.inService() && healthyRaftLogDirs(node) > 0
        && hasDataRoom(node);
  }

  /**
   * HEALTHY, serving, in service, with room on a data volume: it may take a replica of a new erasure-coded container
   * (clients write those straight to its read port, so a node that registered but has not started serving is not).
   */
  public static boolean canHoldData(NodeStatus node) {
    return node.state() == NodeState.HEALTHY && node.serving() && node.inService() && hasDataRoom(node);
  }

  /**
   * Whether enough HEALTHY, in-service datanodes that have reported their volumes exist for a pipeline of
   * {@code members}, but too few of them have room on a data volume: then the cluster is full, not short of nodes
   * (nor still waiting for their first reports).
   */
  public static boolean shortOfRoom(List<NodeStatus> nodes, int members) {
    List<NodeStatus> usable = nodes.stream().filter(n -> n.state() == NodeState.HEALTHY && n.inService()
        && n.lastReport().getVolumesCount() > 0).toList();
    return usable.size() >= members && usable.stream().filter(NodeCapacity::hasDataRoom).count() < members;
  }

  /** Whether the datanode has reported its data volumes and none has room: it is full, not just unheard of. */
  static boolean isFull(NodeStatus node) {
    return node.lastReport().getVolumesCount() > 0 && !hasDataRoom(node);
  }

  /** Whether a healthy data volume has more free space than it keeps back for writes already accepted. */
  static boolean hasDataRoom(NodeStatus node) {
    return node.lastReport().getVolumesList().stream().anyMatch(NodeCapacity::hasRoom);
  }

  private static boolean hasRoom(VolumeReport volume) {
    return volume.getState() == StorageState.NORMAL && volume.getAvailableBytes() > volume.getReservedBytes();
  }
}
