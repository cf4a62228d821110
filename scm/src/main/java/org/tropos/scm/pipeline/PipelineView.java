package org.tropos.scm.pipeline;

import java.util.List;
import java.util.UUID;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.scm.db.PipelineRecord;
import org.tropos.scm.node.NodeStatus;

/**
 * A snapshot of one pipeline for callers outside the pipeline manager.
 *
 * @param record the persisted record
 * @param members each member with its node and its last report of the group
 * @param leader the reported leader, or null while unknown
 */
public record PipelineView(PipelineRecord record, List<Member> members, UUID leader) {
  /**
   * One member.
   *
   * @param id the datanode
   * @param node its status, or null if SCM does not know it (yet)
   * @param report its last report of the group, or null if it does not host it (yet)
   */
  public record Member(UUID id, NodeStatus node, PipelineReport report) {
  }

  PipelineView withState(PipelineState state) {
    return new PipelineView(record.toBuilder().setState(state).build(), members, leader);
  }
}
