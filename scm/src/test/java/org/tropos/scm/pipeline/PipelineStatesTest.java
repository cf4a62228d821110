package org.tropos.scm.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tropos.common.util.TransitionTable;
import org.tropos.proto.hdds.PipelineState;

class PipelineStatesTest {
  @Test
  void aClosedPipelineIsFinalAndAFormedOneNeverAllocatedAgain() {
    assertEquals(Set.of(), PipelineStates.TABLE.next(PipelineState.CLOSED));
    assertThrows(TransitionTable.IllegalTransitionException.class,
        () -> PipelineStates.TABLE.check("p", PipelineState.OPEN, PipelineState.ALLOCATED));
    assertThrows(TransitionTable.IllegalTransitionException.class,
        () -> PipelineStates.TABLE.check("p", PipelineState.ALLOCATED, PipelineState.DORMANT));
  }
}
