package org.tropos.scm.node;

import java.util.UUID;
import org.tropos.proto.hdds.DatanodeDetails;
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
 */
public record NodeStatus(UUID id, DatanodeDetails details, NodeState state, NodeReport lastReport,
    long lastHeartbeatAgeMs) {
}
