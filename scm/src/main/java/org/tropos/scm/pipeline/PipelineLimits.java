package org.tropos.scm.pipeline;

import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;

/**
 * How many pipelines a datanode may join, and the cluster may hold.
 *
 * @param perNode ozone.scm.datanode.pipeline.limit; 0 = {@code perDisk} times the node's RaftLog disks
 * @param perDisk ozone.scm.pipeline.per.metadata.disk
 * @param clusterWide ozone.scm.ratis.pipeline.limit; 0 = none
 */
public record PipelineLimits(int perNode, int perDisk, int clusterWide) {
  public static PipelineLimits from(Configuration conf) {
    return new PipelineLimits(conf.get(ScmKeys.DATANODE_PIPELINE_LIMIT), conf.get(ScmKeys.PIPELINE_PER_METADATA_DISK),
        conf.get(ScmKeys.RATIS_PIPELINE_LIMIT));
  }

  /** The most pipelines {@code node} may be a member of. */
  public int limitOf(PlacementNode node) {
    return perNode > 0 ? perNode : perDisk * node.raftLogDisks();
  }

  public boolean isAuto() {
    return perNode == 0;
  }
}
