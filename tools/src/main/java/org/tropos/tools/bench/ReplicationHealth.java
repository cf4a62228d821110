package org.tropos.tools.bench;

import java.util.ArrayList;
import java.util.List;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.proto.scm.ReplicaInfo;

/**
 * Whether a cluster has healed, as an operator sees it through SCM's admin service: every container that is not
 * OPEN is CLOSED and HEALTHY, with exactly three replicas on HEALTHY in-service datanodes, all sound (CLOSED, not
 * reported corrupt) and on two racks. Used by {@code tropos bench recovery} and the fault suite.
 */
public final class ReplicationHealth {
  private ReplicationHealth() {
  }

  /** What keeps the cluster from being healed, a line per container; empty when it is. */
  public static List<String> problems(ScmAdminClient admin) throws ScmException {
    List<String> problems = new ArrayList<>();
    for (ContainerSummary c : admin.listContainers(ContainerState.CONTAINER_STATE_UNSPECIFIED,
        ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED, 0, Integer.MAX_VALUE)) {
      if (c.getState() == ContainerState.CONTAINER_OPEN) {
        continue;
      }
      List<ReplicaInfo> serving = admin.container(c.getContainerId()).getReplicasList().stream()
          .filter(r -> r.getNodeState() == NodeState.HEALTHY
              && r.getOperationalState() == NodeOperationalState.IN_SERVICE).toList();
      long sound = serving.stream()
          .filter(r -> r.getState() == ContainerState.CONTAINER_CLOSED && !r.getReportedBad()).count();
      long racks = serving.stream().map(r -> r.getDatanode().getNetworkLocation()).distinct().count();
      if (c.getState() != ContainerState.CONTAINER_CLOSED || c.getHealth() != ContainerHealth.HEALTHY
          || sound != 3 || serving.size() != 3 || racks != 2) {
        problems.add("container " + c.getContainerId() + " " + c.getState() + " " + c.getHealth() + ": " + sound
            + " sound of " + serving.size() + " replicas on in-service nodes, " + racks + " racks");
      }
    }
    return problems;
  }
}
