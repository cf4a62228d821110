package org.tropos.scm.pipeline;

import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.scm.node.NodeStatus;

/** What a datanode's last report says about its room for pipelines. */
final class NodeCapacity {
  private NodeCapacity() {
  }

  static int healthyRaftLogDirs(NodeStatus node) {
    return (int) node.lastReport().getRaftLogDirsList().stream().filter(d -> d.getState() == StorageState.NORMAL)
        .count();
  }

  /** HEALTHY and in service, with a healthy RaftLog directory and a healthy data volume with free space. */
  static boolean canHostPipelines(NodeStatus node) {
    return node.state() == NodeState.HEALTHY && node.inService() && healthyRaftLogDirs(node) > 0
        && node.lastReport().getVolumesList().stream().anyMatch(NodeCapacity::hasRoom);
  }

  private static boolean hasRoom(VolumeReport volume) {
    return volume.getState() == StorageState.NORMAL && volume.getAvailableBytes() > 0;
  }
}
