package org.tropos.scm.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.scm.container.ContainerView;

/**
 * Decides when a draining datanode is done: DECOMMISSIONING becomes DECOMMISSIONED once every container it held
 * or was writing is CLOSED with as many healthy replicas on other counting nodes as it needs; ENTERING_MAINTENANCE
 * becomes IN_MAINTENANCE once each has {@code maintenanceMinimum} (at most its need) healthy replicas on in-service
 * nodes. Maintenance ends by itself at its end time. Pure: the replication manager applies what it returns.
 */
final class DrainMonitor {
  private final int maintenanceMinimum;

  DrainMonitor(int maintenanceMinimum) {
    this.maintenanceMinimum = maintenanceMinimum;
  }

  /** A node's move to a new operational state. */
  record Transition(UUID node, NodeOperationalState to) {
  }

  /** @param maintenanceEnds per node in maintenance, when it ends (epoch ms; 0 = until recommissioned) */
  List<Transition> transitions(Collection<ContainerView> containers, Map<UUID, ReplicaNode> nodes,
      Map<UUID, Long> maintenanceEnds, long nowEpochMs) {
    List<Transition> moves = new ArrayList<>();
    for (ReplicaNode node : nodes.values()) {
      long end = maintenanceEnds.getOrDefault(node.id(), 0L);
      boolean maintenanceOver = end > 0 && nowEpochMs >= end;
      switch (node.operationalState()) {
        case DECOMMISSIONING -> {
          if (drained(node.id(), containers, nodes, false)) {
            moves.add(new Transition(node.id(), NodeOperationalState.DECOMMISSIONED));
          }
        }
        case ENTERING_MAINTENANCE -> {
          if (maintenanceOver) {
            moves.add(new Transition(node.id(), NodeOperationalState.IN_SERVICE));
          } else if (drained(node.id(), containers, nodes, true)) {
            moves.add(new Transition(node.id(), NodeOperationalState.IN_MAINTENANCE));
          }
        }
        case IN_MAINTENANCE -> {
          if (maintenanceOver) {
            moves.add(new Transition(node.id(), NodeOperationalState.IN_SERVICE));
          }
        }
        default -> {
        }
      }
    }
    return moves;
  }

  private boolean drained(UUID leaving, Collection<ContainerView> containers, Map<UUID, ReplicaNode> nodes,
      boolean forMaintenance) {
    for (ContainerView c : containers) {
      boolean holds = c.replicas().stream().anyMatch(r -> r.node().equals(leaving));
      boolean writes = c.state() != ContainerState.CONTAINER_CLOSED && c.members().contains(leaving);
      if (!holds && !writes) {
        continue;
      }
      if (c.state() != ContainerState.CONTAINER_CLOSED) {
        return false;
      }
      int needed = forMaintenance ? Math.min(c.required(), maintenanceMinimum) : c.required();
      long elsewhere = c.replicas().stream()
          .filter(r -> !r.node().equals(leaving) && r.state() == ContainerState.CONTAINER_CLOSED && !r.reportedBad())
          .map(r -> nodes.get(r.node()))
          .filter(n -> n != null && n.present() && (forMaintenance ? n.inService() : n.counts()))
          .count();
      if (elsewhere < needed) {
        return false;
      }
    }
    return true;
  }
}
