package org.tropos.datanode.container;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.TransitionTable;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ContainerState;

/**
 * Moves container replicas between states, each move checked against {@link ReplicaStates#TABLE} (an illegal one
 * is INVALID_REQUEST and changes nothing). A replica leaving OPEN makes its block records durable first.
 *
 * <p>Thread-safe: a move holds the container's block lock, which keeps it apart from commits and deletions.
 */
final class ReplicaLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaLifecycle.class);

  private final String nodeName;
  /** Told after each move. */
  private final Runnable moved;

  ReplicaLifecycle(String nodeName, Runnable moved) {
    this.nodeName = nodeName;
    this.moved = moved;
  }

  /** Moves {@code container} to {@code state}; {@code reason} says why an UNHEALTHY one is. */
  ContainerDescriptor move(Container container, ContainerState state, String reason) throws DatanodeException {
    long containerId = container.descriptor().getContainerId();
    ContainerDescriptor updated;
    try {
      synchronized (container.blockLock()) {
        ContainerState from = container.descriptor().getState();
        try {
          ReplicaStates.TABLE.check(containerId + " on " + nodeName, from, state);
        } catch (TransitionTable.IllegalTransitionException e) {
          throw new DatanodeException(DatanodeResult.INVALID_REQUEST, e.getMessage());
        }
        updated = container.descriptor().toBuilder().setState(state).setUnhealthyReason(reason).build();
        boolean leavesOpen = container.isOpen() && state != ContainerState.CONTAINER_OPEN;
        if (leavesOpen) {
          // Its block records must be durable before it takes no more commits: a replay of one after a crash
          // would be refused by the no longer OPEN container (VolumeDb#put).
          container.db().flushLeavingOpen(containerId);
        }
        container.save(updated);
        if (leavesOpen) {
          container.db().forgetDeleted(containerId);
        }
      }
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "record container " + containerId + " as " + state, e);
    }
    LOG.info("{}: container {} is {}", nodeName, containerId, state);
    moved.run();
    return updated;
  }

  /**
   * Closes an OPEN or CLOSING replica through its pipeline. One already QUASI_CLOSED is left so: it quasi-closed
   * without the entries before this one (a member cut off from its peers when SCM declared the pipeline gone,
   * catching up after), which it no longer applies, so closing it here would make CLOSED a replica short of
   * acknowledged blocks; SCM closes it if it is whole.
   */
  void closeThroughPipeline(Container container) throws DatanodeException {
    if (container.descriptor().getState() == ContainerState.CONTAINER_QUASI_CLOSED) {
      LOG.warn("{}: container {} quasi-closed before its pipeline closed it: left QUASI_CLOSED for SCM", nodeName,
          container.descriptor().getContainerId());
      return;
    }
    move(container, ContainerState.CONTAINER_CLOSED, "");
  }

  /** Closes an open replica locally as QUASI_CLOSED (its pipeline is gone); others are left as they are. */
  void quasiClose(Container container) throws DatanodeException {
    ContainerState state = container.descriptor().getState();
    if (state == ContainerState.CONTAINER_OPEN || state == ContainerState.CONTAINER_CLOSING) {
      move(container, ContainerState.CONTAINER_QUASI_CLOSED, "");
    }
  }

  /** Closes a QUASI_CLOSED replica as CLOSED without its pipeline; a CLOSED one is left, others refused. */
  void forceClose(Container container) throws DatanodeException {
    ContainerState state = container.descriptor().getState();
    if (state == ContainerState.CONTAINER_QUASI_CLOSED) {
      move(container, ContainerState.CONTAINER_CLOSED, "");
    } else if (state != ContainerState.CONTAINER_CLOSED) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "container "
          + container.descriptor().getContainerId() + " on " + nodeName + " is " + state
          + ": only a QUASI_CLOSED replica is closed without its pipeline");
    }
  }
}
