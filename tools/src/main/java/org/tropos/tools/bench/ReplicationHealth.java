package org.tropos.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.ec.EcReplication;
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
 * reported corrupt) and on two racks; an erasure-coded one with each index once, sound, on such datanodes, no rack
 * holding more indexes than there are parity units. Used by {@code tropos bench recovery} and the fault suites.
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
      String problem = c.hasEc() ? ecProblem(EcReplication.fromProto(c.getEc()), serving)
          : replicatedProblem(serving);
      if (c.getState() != ContainerState.CONTAINER_CLOSED || c.getHealth() != ContainerHealth.HEALTHY
          || problem != null) {
        problems.add("container " + c.getContainerId() + " (" + c.getReplication() + ") " + c.getState() + " "
            + c.getHealth() + (problem == null ? "" : ": " + problem));
      }
    }
    return problems;
  }

  private static String replicatedProblem(List<ReplicaInfo> serving) {
    long sound = serving.stream().filter(ReplicationHealth::sound).count();
    long racks = serving.stream().map(r -> r.getDatanode().getNetworkLocation()).distinct().count();
    return sound == 3 && serving.size() == 3 && racks == 2 ? null
        : sound + " sound of " + serving.size() + " replicas on in-service nodes, " + racks + " racks";
  }

  private static String ecProblem(EcReplication config, List<ReplicaInfo> serving) {
    Map<Integer, Long> perIndex = serving.stream().filter(ReplicationHealth::sound)
        .collect(Collectors.groupingBy(ReplicaInfo::getReplicaIndex, TreeMap::new, Collectors.counting()));
    Map<String, Long> perRack = serving.stream().collect(Collectors.groupingBy(
        r -> r.getDatanode().getNetworkLocation(), TreeMap::new, Collectors.counting()));
    boolean everyIndexOnce = perIndex.size() == config.units() && serving.size() == config.units()
        && perIndex.values().stream().allMatch(n -> n == 1)
        && perIndex.keySet().stream().allMatch(i -> i >= 1 && i <= config.units());
    return everyIndexOnce && perRack.values().stream().allMatch(n -> n <= config.parity()) ? null
        : "sound replicas per index " + perIndex + " of " + serving.size() + " on in-service nodes, per rack "
            + perRack;
  }

  private static boolean sound(ReplicaInfo r) {
    return r.getState() == ContainerState.CONTAINER_CLOSED && !r.getReportedBad();
  }
}
