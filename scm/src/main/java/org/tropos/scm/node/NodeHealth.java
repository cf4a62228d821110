package org.tropos.scm.node;

import java.time.Duration;
import org.tropos.proto.hdds.NodeState;

/**
 * The rules of datanode health: HEALTHY → STALE → DEAD as heartbeats age past the stale and dead intervals;
 * only a heartbeat (or registration) brings a node back to HEALTHY. Ageing never promotes.
 */
final class NodeHealth {
  private final long staleMs;
  private final long deadMs;

  NodeHealth(Duration staleInterval, Duration deadInterval) {
    this.staleMs = staleInterval.toMillis();
    this.deadMs = deadInterval.toMillis();
  }

  /** The state a node in {@code current} is in after {@code ageMs} without a heartbeat. */
  NodeState aged(NodeState current, long ageMs) {
    if (ageMs >= deadMs) {
      return NodeState.DEAD;
    }
    if (ageMs >= staleMs && current == NodeState.HEALTHY) {
      return NodeState.STALE;
    }
    return current;
  }
}
