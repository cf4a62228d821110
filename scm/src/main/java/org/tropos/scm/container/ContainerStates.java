package org.tropos.scm.container;

import static org.tropos.proto.hdds.ContainerState.CONTAINER_CLOSED;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_CLOSING;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_OPEN;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_QUASI_CLOSED;

import org.tropos.common.util.TransitionTable;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.scm.db.ContainerRecord;

/**
 * The moves of a container as SCM tracks it (its replicas have their own, on the datanodes).
 *
 * <pre>
 * OPEN ──(full, its pipeline replaced, an EC member lost)──▶ CLOSING ──(closed on every replica)──▶ CLOSED
 *   └─────────────(its pipeline gone)─────────┴──▶ QUASI_CLOSED ──(a replica closed with the most writes)──▶ CLOSED
 * </pre>
 *
 * CLOSED is final: its replicas take no more writes, so nothing may reopen it.
 */
final class ContainerStates {
  static final TransitionTable<ContainerState> TABLE = TransitionTable.of(ContainerState.class, "container")
      .allow(CONTAINER_OPEN, CONTAINER_CLOSING, CONTAINER_QUASI_CLOSED)
      .allow(CONTAINER_CLOSING, CONTAINER_CLOSED, CONTAINER_QUASI_CLOSED)
      .allow(CONTAINER_QUASI_CLOSED, CONTAINER_CLOSED)
      .build();

  private ContainerStates() {
  }

  /** {@code c} in {@code state}, the move checked against {@link #TABLE}. */
  static ContainerRecord moved(ContainerRecord c, ContainerState state) {
    TABLE.check(Long.toString(c.getContainerId()), c.getState(), state);
    return c.toBuilder().setState(state).build();
  }
}
