package org.tropos.scm.replication;

import java.util.UUID;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;

/**
 * One datanode as replication sees it.
 *
 * @param id the datanode
 * @param rack its rack
 * @param health HEALTHY, STALE or DEAD
 * @param operationalState in service, decommissioning, in maintenance...
 * @param freeBytes free bytes on its healthy data volumes, by its last report
 */
public record ReplicaNode(UUID id, String rack, NodeState health, NodeOperationalState operationalState,
    long freeBytes) {

  /** Whether its replicas still exist for replication: not DEAD, or DEAD but in maintenance (it comes back). */
  boolean present() {
    return health != NodeState.DEAD || inMaintenance();
  }

  /** Whether SCM sends it commands: a STALE node may be briefly cut off, so nothing is done on its account. */
  boolean commandable() {
    return health == NodeState.HEALTHY;
  }

  /** Whether its replicas count towards a container's replicas: not when it is leaving the cluster. */
  boolean counts() {
    return operationalState != NodeOperationalState.DECOMMISSIONING
        && operationalState != NodeOperationalState.DECOMMISSIONED;
  }

  /** Whether it may receive a new replica of {@code bytes}. */
  boolean canReceive(long bytes) {
    return commandable() && inService() && freeBytes > bytes;
  }

  /** Whether an extra replica may be deleted from it (not from a node in maintenance: it keeps its data). */
  boolean deletable() {
    return commandable() && inService();
  }

  boolean inService() {
    return operationalState == NodeOperationalState.IN_SERVICE
        || operationalState == NodeOperationalState.NODE_OPERATIONAL_STATE_UNSPECIFIED;
  }

  private boolean inMaintenance() {
    return operationalState == NodeOperationalState.ENTERING_MAINTENANCE
        || operationalState == NodeOperationalState.IN_MAINTENANCE;
  }
}
