package org.tropos.scm.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.scm.container.EcContainerView;
import org.tropos.scm.container.EcContainerView.IndexReplica;

/**
 * Decides how closed erasure-coded containers get back every index (ARCHITECTURE.md, "Erasure coding"). An index
 * is held by a sound replica: CLOSED, not found corrupt, on a datanode that is there. An index held only on a
 * datanode leaving the cluster is copied off it; an index held nowhere is rebuilt on a new datanode from the
 * others (once {@code data} of them can be read); an index held twice loses its extra, and a damaged replica
 * (UNHEALTHY, or found corrupt by a reader) goes once its index is held soundly elsewhere. A new index goes to a
 * datanode with room holding no index of the container, on the rack holding fewest of its indexes, and to no node
 * already given {@code perNodeLimit} rebuilds or copies.
 *
 * <p>Pure and deterministic: snapshots in, a plan out.
 */
final class EcRepairPlanner {
  private final int perNodeLimit;

  EcRepairPlanner(int perNodeLimit) {
    this.perNodeLimit = perNodeLimit;
  }

  /** What to send, and what each container was found to be. */
  record Plan(List<EcRepair> actions, Map<Long, ContainerHealth> health) {
  }

  Plan plan(Collection<EcContainerView> containers, Map<UUID, ReplicaNode> nodes, List<EcRepair> inFlight) {
    Map<UUID, Integer> load = new HashMap<>();
    inFlight.forEach(f -> load.merge(f.target(), 1, Integer::sum));
    List<EcRepair> actions = new ArrayList<>();
    Map<Long, ContainerHealth> health = new TreeMap<>();
    for (EcContainerView c : containers) {
      if (c.state() != ContainerState.CONTAINER_CLOSED) {
        health.put(c.id(), ContainerHealth.OPEN);
        continue;
      }
      List<EcRepair> pending = inFlight.stream().filter(f -> f.containerId() == c.id()).toList();
      health.put(c.id(), planContainer(c, nodes, pending, load, actions));
    }
    return new Plan(actions, health);
  }

  private ContainerHealth planContainer(EcContainerView c, Map<UUID, ReplicaNode> nodes, List<EcRepair> pending,
      Map<UUID, Integer> load, List<EcRepair> actions) {
    EcReplication config = c.config();
    Map<Integer, List<IndexReplica>> staying = new TreeMap<>();
    Map<Integer, List<IndexReplica>> leaving = new TreeMap<>();
    for (IndexReplica r : c.replicas()) {
      ReplicaNode node = nodes.get(r.node());
      if (sound(r, config) && node != null && node.present()) {
        (node.counts() ? staying : leaving).computeIfAbsent(r.index(), i -> new ArrayList<>()).add(r);
      }
    }
    Set<Integer> readable = new HashSet<>();
    staying.keySet().forEach(readable::add);
    leaving.keySet().forEach(readable::add);
    if (readable.size() < config.data()) {
      return ContainerHealth.MISSING;
    }
    Set<Integer> underway = new HashSet<>();
    pending.forEach(p -> underway.add(p.index()));
    boolean under = !underway.isEmpty();
    boolean over = false;
    for (int index = 1; index <= config.units(); index++) {
      List<IndexReplica> held = staying.getOrDefault(index, List.of());
      if (held.size() > 1) {
        over |= deleteExtras(c, held, nodes, actions);
      } else if (held.isEmpty() && !underway.contains(index)) {
        under = true;
        restore(c, index, leaving.getOrDefault(index, List.of()), staying, leaving, nodes, load, actions);
      }
    }
    over |= deleteDamaged(c, staying, underway, nodes, actions);
    return under ? ContainerHealth.UNDER_REPLICATED : over ? ContainerHealth.OVER_REPLICATED
        : ContainerHealth.HEALTHY;
  }

  /** Copies an index off a leaving datanode, or rebuilds it from the others; nothing while no target is free. */
  private void restore(EcContainerView c, int index, List<IndexReplica> onLeaving,
      Map<Integer, List<IndexReplica>> staying, Map<Integer, List<IndexReplica>> leaving,
      Map<UUID, ReplicaNode> nodes, Map<UUID, Integer> load, List<EcRepair> actions) {
    Optional<UUID> copySource = onLeaving.stream().map(IndexReplica::node)
        .filter(n -> nodes.get(n).commandable()).findFirst();
    Map<Integer, UUID> sources = new LinkedHashMap<>();
    for (int other = 1; other <= c.config().units(); other++) {
      List<IndexReplica> away = leaving.get(other);
      Optional<UUID> holder = commandableHolder(staying.get(other), nodes)
          .or(() -> commandableHolder(away, nodes));
      if (other != index && holder.isPresent()) {
        sources.put(other, holder.get());
      }
    }
    if (copySource.isEmpty() && sources.size() < c.config().data()) {
      return;
    }
    Optional<UUID> target = target(c, nodes, load, actions);
    if (target.isEmpty()) {
      return;
    }
    load.merge(target.get(), 1, Integer::sum);
    actions.add(copySource.isPresent()
        ? new EcRepair(c.id(), c.config(), index, target.get(), Map.of(index, copySource.get()), 0)
        : new EcRepair(c.id(), c.config(), index, target.get(), sources, 0));
  }

  /** Deletes all but one of an index's replicas, from datanodes that may delete; whether any was. */
  private static boolean deleteExtras(EcContainerView c, List<IndexReplica> held, Map<UUID, ReplicaNode> nodes,
      List<EcRepair> actions) {
    boolean any = false;
    for (IndexReplica extra : held.subList(1, held.size())) {
      if (nodes.get(extra.node()).deletable()) {
        actions.add(EcRepair.delete(c.id(), c.config(), extra.index(), extra.node()));
        any = true;
      }
    }
    return any;
  }

  /**
   * Deletes the damaged replicas of indexes held soundly on a datanode that stays (nothing is lost with them), from
   * datanodes that may delete; whether any was.
   */
  private static boolean deleteDamaged(EcContainerView c, Map<Integer, List<IndexReplica>> staying,
      Set<Integer> underway, Map<UUID, ReplicaNode> nodes, List<EcRepair> actions) {
    boolean any = false;
    for (IndexReplica r : c.replicas()) {
      ReplicaNode node = nodes.get(r.node());
      boolean damaged = r.state() == ContainerState.CONTAINER_UNHEALTHY || r.reportedBad();
      if (damaged && !staying.getOrDefault(r.index(), List.of()).isEmpty() && !underway.contains(r.index())
          && node != null && node.present() && node.deletable()) {
        actions.add(EcRepair.delete(c.id(), c.config(), r.index(), r.node()));
        any = true;
      }
    }
    return any;
  }

  private static Optional<UUID> commandableHolder(List<IndexReplica> replicas, Map<UUID, ReplicaNode> nodes) {
    return replicas == null ? Optional.empty() : replicas.stream().map(IndexReplica::node)
        .filter(n -> nodes.get(n).commandable()).findFirst();
  }

  /**
   * A datanode for a new index of {@code c}: with room for one, holding no replica of it nor given one this round,
   * below its limit; on the rack with fewest of its indexes, then the one with most room.
   */
  private Optional<UUID> target(EcContainerView c, Map<UUID, ReplicaNode> nodes, Map<UUID, Integer> load,
      List<EcRepair> actions) {
    long bytes = c.replicas().stream().mapToLong(IndexReplica::usedBytes).max().orElse(0);
    Set<UUID> taken = new HashSet<>();
    c.replicas().forEach(r -> taken.add(r.node()));
    actions.stream().filter(a -> a.containerId() == c.id()).forEach(a -> taken.add(a.target()));
    Map<String, Integer> perRack = new HashMap<>();
    taken.forEach(n -> Optional.ofNullable(nodes.get(n)).filter(ReplicaNode::present)
        .ifPresent(node -> perRack.merge(node.rack(), 1, Integer::sum)));
    return nodes.values().stream()
        .filter(n -> n.canReceive(bytes) && !taken.contains(n.id()) && load.getOrDefault(n.id(), 0) < perNodeLimit)
        .min(Comparator.<ReplicaNode>comparingInt(n -> perRack.getOrDefault(n.rack(), 0))
            .thenComparing(Comparator.comparingLong(ReplicaNode::freeBytes).reversed())
            .thenComparing(ReplicaNode::id))
        .map(ReplicaNode::id);
  }

  /**
   * Whether a datanode leaving the cluster (or, {@code forMaintenance}, stopping for a while) no longer holds what
   * erasure-coded containers need: no container it is a member of is still written, and (but for maintenance, after
   * which its indexes come back) each index it holds is held on a counting datanode too.
   */
  static boolean drained(UUID leaving, Collection<EcContainerView> containers, Map<UUID, ReplicaNode> nodes,
      boolean forMaintenance) {
    for (EcContainerView c : containers) {
      List<IndexReplica> held = c.replicas().stream().filter(r -> r.node().equals(leaving)).toList();
      if (held.isEmpty()) {
        continue;
      }
      if (c.state() != ContainerState.CONTAINER_CLOSED) {
        return false;
      }
      for (IndexReplica mine : held) {
        boolean elsewhere = c.replicas().stream().anyMatch(r -> !r.node().equals(leaving)
            && r.index() == mine.index() && sound(r, c.config()) && nodes.containsKey(r.node())
            && nodes.get(r.node()).present() && nodes.get(r.node()).counts());
        if (!forMaintenance && !elsewhere) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean sound(IndexReplica r, EcReplication config) {
    return r.state() == ContainerState.CONTAINER_CLOSED && !r.reportedBad() && r.index() >= 1
        && r.index() <= config.units();
  }
}
