package org.tropos.scm.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.tropos.scm.node.NodeStatus;

/**
 * What pipeline placement knows of one datanode.
 *
 * @param id the datanode
 * @param rack its rack ({@code /rack1})
 * @param raftLogDisks its healthy RaftLog disks (the auto limit is per disk)
 * @param pipelines open pipelines of the factor being placed that it is a member of
 * @param leaders pipelines it leads (or is the suggested leader of)
 * @param usable HEALTHY, with a healthy RaftLog disk and space on a data volume
 */
public record PlacementNode(UUID id, String rack, int raftLogDisks, int pipelines, int leaders, boolean usable) {
  public PlacementNode withPipeline(boolean leads) {
    return new PlacementNode(id, rack, raftLogDisks, pipelines + 1, leaders + (leads ? 1 : 0), usable);
  }

  public PlacementNode withPipelines(int count) {
    return new PlacementNode(id, rack, raftLogDisks, count, leaders, usable);
  }

  /** Every node as placement sees it, counting its memberships and leaderships of {@code live} pipelines. */
  static List<PlacementNode> of(List<NodeStatus> nodes, List<TrackedPipeline> live) {
    Map<UUID, int[]> counts = new HashMap<>();
    for (TrackedPipeline p : live) {
      UUID leader = p.leaderOrSuggested();
      p.members.forEach(m -> {
        int[] c = counts.computeIfAbsent(m, k -> new int[2]);
        c[0]++;
        c[1] += m.equals(leader) ? 1 : 0;
      });
    }
    List<PlacementNode> result = new ArrayList<>();
    for (NodeStatus n : nodes) {
      int[] c = counts.getOrDefault(n.id(), new int[2]);
      result.add(new PlacementNode(n.id(), n.details().getNetworkLocation(), NodeCapacity.healthyRaftLogDirs(n),
          c[0], c[1], NodeCapacity.canHostPipelines(n)));
    }
    return result;
  }
}
