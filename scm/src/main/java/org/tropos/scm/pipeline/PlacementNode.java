package org.tropos.scm.pipeline;

import java.util.UUID;

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
}
