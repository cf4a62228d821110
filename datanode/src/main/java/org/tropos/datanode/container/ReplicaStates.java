package org.tropos.datanode.container;

import static org.tropos.proto.hdds.ContainerState.CONTAINER_CLOSED;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_CLOSING;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_OPEN;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_QUASI_CLOSED;
import static org.tropos.proto.hdds.ContainerState.CONTAINER_UNHEALTHY;

import org.tropos.common.util.TransitionTable;
import org.tropos.proto.hdds.ContainerState;

/**
 * The moves of a container replica on a datanode.
 *
 * <pre>
 * OPEN ──▶ CLOSING ──▶ CLOSED         (closed through its pipeline's Raft log)
 *   │         └──────▶ QUASI_CLOSED ──▶ CLOSED   (pipeline gone; SCM closes the replica with the most writes)
 *   └──▶ CLOSED, QUASI_CLOSED
 * any but UNHEALTHY ──▶ UNHEALTHY      (a check found it corrupt or incomplete: final, SCM replaces it)
 * </pre>
 *
 * An UNHEALTHY replica never becomes CLOSED again: a close would make a replica known to be wrong count as a
 * sound copy.
 */
final class ReplicaStates {
  static final TransitionTable<ContainerState> TABLE = TransitionTable.of(ContainerState.class, "replica of container")
      .allow(CONTAINER_OPEN, CONTAINER_CLOSING, CONTAINER_QUASI_CLOSED, CONTAINER_CLOSED, CONTAINER_UNHEALTHY)
      .allow(CONTAINER_CLOSING, CONTAINER_QUASI_CLOSED, CONTAINER_CLOSED, CONTAINER_UNHEALTHY)
      .allow(CONTAINER_QUASI_CLOSED, CONTAINER_CLOSED, CONTAINER_UNHEALTHY)
      .allow(CONTAINER_CLOSED, CONTAINER_UNHEALTHY)
      .build();

  private ReplicaStates() {
  }
}
