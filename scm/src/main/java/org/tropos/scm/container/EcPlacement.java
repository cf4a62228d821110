package org.tropos.scm.container;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.node.NodeStatus;
import org.tropos.scm.pipeline.NodeCapacity;

/**
 * Chooses the datanodes of a new erasure-coded container, one per replica index (ARCHITECTURE.md, "Erasure
 * coding"). Indexes are dealt round-robin over the racks, the racks with the most eligible nodes first and within a
 * rack the least-loaded node first, so no rack holds more indexes than it must: with at least
 * {@code ceil(units / parity)} racks of enough nodes, losing a rack loses at most {@code parity} indexes, and the
 * group stays readable.
 *
 * <p>Pure and deterministic: a snapshot in, a decision or a typed error out.
 */
final class EcPlacement {
  private EcPlacement() {
  }

  /**
   * The members of a new container of {@code config}, in replica-index order.
   *
   * @param nodes every known datanode (those that cannot take data, or are excluded, are skipped)
   * @param load per datanode, how many OPEN erasure-coded containers it is a member of
   */
  static List<UUID> place(EcReplication config, Collection<NodeStatus> nodes, Set<UUID> excluded,
      Map<UUID, Integer> load) throws ScmException {
    List<NodeStatus> eligible = nodes.stream().filter(NodeCapacity::canHoldData)
        .filter(n -> !excluded.contains(n.id())).toList();
    if (eligible.size() < config.units()) {
      throw new ScmException(ScmResult.NOT_ENOUGH_HEALTHY_NODES, "an " + config + " block group needs "
          + config.units() + " datanodes that are HEALTHY, in service and have room on a data volume; "
          + eligible.size() + " are" + (excluded.isEmpty() ? "" : " outside the exclude list"));
    }
    Comparator<NodeStatus> leastLoaded = Comparator.<NodeStatus>comparingInt(n -> load.getOrDefault(n.id(), 0))
        .thenComparing(NodeStatus::id);
    Map<String, List<NodeStatus>> byRack = eligible.stream().collect(Collectors.groupingBy(
        n -> n.details().getNetworkLocation(), TreeMap::new, Collectors.toList()));
    List<Deque<NodeStatus>> racks = byRack.values().stream()
        .sorted(Comparator.comparingInt(List<NodeStatus>::size).reversed())
        .map(rack -> (Deque<NodeStatus>) new ArrayDeque<>(rack.stream().sorted(leastLoaded).toList()))
        .collect(Collectors.toCollection(ArrayList::new));
    List<UUID> chosen = new ArrayList<>(config.units());
    while (chosen.size() < config.units()) {
      for (Deque<NodeStatus> rack : racks) {
        if (!rack.isEmpty() && chosen.size() < config.units()) {
          chosen.add(rack.poll().id());
        }
      }
    }
    return chosen;
  }
}
