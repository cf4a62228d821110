package org.tropos.common.rpc;

import java.util.Set;
import java.util.function.Predicate;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.Uuid;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/** Which blocks allocated ahead a writer's failure rules out: those on its excluded pipelines, containers, nodes. */
public final class Excluded {
  private Excluded() {
  }

  /** Whether a block is on anything {@code failed} names. */
  public static Predicate<AllocateBlockResponse> by(ExcludeList failed) {
    Set<PipelineId> pipelines = Set.copyOf(failed.getPipelinesList());
    Set<Long> containers = Set.copyOf(failed.getContainersList());
    Set<Uuid> datanodes = Set.copyOf(failed.getDatanodesList());
    return block -> pipelines.contains(block.getPipeline().getId())
        || containers.contains(block.getBlockId().getContainerId())
        || block.getPipeline().getMembersList().stream().anyMatch(m -> datanodes.contains(m.getDatanode().getUuid()));
  }
}
