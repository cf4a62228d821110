package org.tropos.scm.node;

import java.util.List;
import java.util.UUID;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineReport;

/**
 * What other SCM components hear from the node manager. Called without the node manager's lock held, on the
 * thread that saw the event (an RPC handler or the node checker): implementations must not block for long.
 */
public interface NodeEvents {
  NodeEvents NONE = new NodeEvents() {
  };

  /** A datanode registered (first time, or again after a restart of either side). */
  default void registered(UUID datanode) {
  }

  /** A datanode's health changed. */
  default void stateChanged(UUID datanode, NodeState from, NodeState to) {
  }

  /** An administrator (or the end of maintenance, or a drain completed) changed a datanode's operational state. */
  default void operationalStateChanged(UUID datanode, NodeOperationalState from, NodeOperationalState to) {
  }

  /** A datanode's heartbeat listed the Raft groups it hosts. */
  default void pipelinesReported(UUID datanode, List<PipelineReport> reports) {
  }

  /** A datanode's heartbeat listed the container replicas it holds. */
  default void containersReported(UUID datanode, List<ContainerReport> reports) {
  }
}
