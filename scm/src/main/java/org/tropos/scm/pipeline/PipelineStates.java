package org.tropos.scm.pipeline;

import static org.tropos.proto.hdds.PipelineState.ALLOCATED;
import static org.tropos.proto.hdds.PipelineState.CLOSED;
import static org.tropos.proto.hdds.PipelineState.DORMANT;
import static org.tropos.proto.hdds.PipelineState.OPEN;

import org.tropos.common.util.TransitionTable;
import org.tropos.proto.hdds.PipelineState;

/**
 * The moves of a pipeline.
 *
 * <pre>
 * ALLOCATED ──(every member hosts the group, a leader elected)──▶ OPEN ◀──activate / deactivate──▶ DORMANT
 * any ──close──▶ CLOSED (final: SCM forgets it, its members leave the group)
 * </pre>
 *
 * A pipeline never goes back to ALLOCATED: once it formed, its group's members are what the log was written by.
 */
final class PipelineStates {
  static final TransitionTable<PipelineState> TABLE = TransitionTable.of(PipelineState.class, "pipeline")
      .allow(ALLOCATED, OPEN, CLOSED)
      .allow(OPEN, DORMANT, CLOSED)
      .allow(DORMANT, OPEN, CLOSED)
      .build();

  private PipelineStates() {
  }
}
