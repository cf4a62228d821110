package org.tropos.scm.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tropos.common.util.TransitionTable;
import org.tropos.proto.hdds.ContainerState;

class ContainerStatesTest {
  @Test
  void aClosedContainerIsFinalAndNoneReopens() {
    assertEquals(Set.of(), ContainerStates.TABLE.next(ContainerState.CONTAINER_CLOSED));
    for (ContainerState from : ContainerState.values()) {
      if (from != ContainerState.CONTAINER_OPEN) {
        assertThrows(TransitionTable.IllegalTransitionException.class,
            () -> ContainerStates.TABLE.check("7", from, ContainerState.CONTAINER_OPEN), from.name());
      }
    }
  }

  @Test
  void aQuasiClosedContainerOnlyCloses() {
    assertEquals(Set.of(ContainerState.CONTAINER_CLOSED),
        ContainerStates.TABLE.next(ContainerState.CONTAINER_QUASI_CLOSED));
  }
}
