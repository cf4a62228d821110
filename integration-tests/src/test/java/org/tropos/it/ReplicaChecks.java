package org.tropos.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.scm.container.ContainerView;
import org.tropos.scm.container.Replica;
import org.tropos.tools.local.LocalCluster;

/** Whether a mini cluster's containers are whole: checked against SCM's view and each datanode's own disk. */
final class ReplicaChecks {
  private ReplicaChecks() {
  }

  /** Waits until every closed container has three healthy replicas on two racks, on running datanodes. */
  static void awaitHealed(MiniCluster mini, Duration timeout) throws Exception {
    awaitHealed(mini, timeout, Set.of());
  }

  /** As {@link #awaitHealed(MiniCluster, Duration)}, not counting the replicas on datanodes {@code leaving}. */
  static void awaitHealed(MiniCluster mini, Duration timeout, Set<Integer> leaving) throws Exception {
    Await.until("every closed container at three healthy replicas on two racks", timeout,
        () -> problems(mini, leaving), List::isEmpty);
  }

  /** What keeps a container from being CLOSED with three healthy replicas on two racks (OPEN ones aside). */
  static List<String> problems(MiniCluster mini, Set<Integer> leaving) {
    LocalCluster cluster = mini.cluster();
    Map<UUID, Integer> counted = new HashMap<>();
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      DatanodeServer dn = cluster.datanode(i);
      if (dn != null && !leaving.contains(i)) {
        counted.put(dn.id().uuid(), i);
      }
    }
    List<String> problems = new ArrayList<>();
    for (ContainerView c : cluster.scm().containerManager().replicationViews()) {
      if (c.state() == ContainerState.CONTAINER_OPEN) {
        continue;
      }
      Set<String> racks = new HashSet<>();
      int healthy = 0;
      int held = 0;
      for (Replica r : c.replicas()) {
        Integer i = counted.get(r.node());
        if (i == null) {
          continue;
        }
        held++;
        if (r.state() == ContainerState.CONTAINER_CLOSED && !r.reportedBad()
            && closedOnDisk(cluster.datanode(i), c.id())) {
          healthy++;
          racks.add(LocalCluster.rackOf(i));
        }
      }
      if (c.state() != ContainerState.CONTAINER_CLOSED || healthy != 3 || held != 3 || racks.size() != 2) {
        problems.add("container " + c.id() + " " + c.state() + ": " + healthy + " healthy of " + held
            + " replicas on " + racks);
      }
    }
    return problems;
  }

  private static boolean closedOnDisk(DatanodeServer dn, long container) {
    return dn.store().containers().stream().filter(d -> d.getContainerId() == container)
        .map(ContainerDescriptor::getState).anyMatch(s -> s == ContainerState.CONTAINER_CLOSED);
  }
}
