package org.tropos.scm.node;

import java.util.UUID;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;

/**
 * A snapshot of one datanode as SCM sees it.
 *
 * @param id the datanode's persistent id
 * @param details address, ports and rack
 * @param state its health
 * @param lastReport its last node report (empty if none since SCM started)
 * @param lastHeartbeatAgeMs time since SCM last heard from it, -1 if not since SCM started
 * @param operationalState in service, decommissioning, in maintenance...
 * @param maintenanceEndEpochMs when its maintenance ends by itself; 0 if not in maintenance or until recommissioned
 * @param serving whether a heartbeat came after its last registration: a datanode starts its data path (store, read
 *     port, Raft server) as it registers and heartbeats only after that, so until then a client writing to it
 *     directly may find its ports closed
 */
public record NodeStatus(UUID id, DatanodeDetails details, NodeState state, NodeReport lastReport,
    long lastHeartbeatAgeMs, NodeOperationalState operationalState, long maintenanceEndEpochMs, boolean serving) {

  public boolean inService() {
    return operationalState == NodeOperationalState.IN_SERVICE;
  }

  public boolean inMaintenance() {
    return operationalState == NodeOperationalState.ENTERING_MAINTENANCE
        || operationalState == NodeOperationalState.IN_MAINTENANCE;
  }
}
