package org.tropos.scm.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.scm.container.ContainerView;
import org.tropos.scm.container.Replica;

/**
 * Decides, from a snapshot of containers, replicas and nodes, what replication does next (ARCHITECTURE.md, "SCM";
 * docs/design.md, "Self-healing replication"). Pure and deterministic: the same snapshot gives the same plan.
 *
 * <p>A replica is <em>healthy</em> when it is CLOSED, not reported corrupt, holds the container's highest committed
 * write (the highest bcsid any replica ever reported: one on a node that is away or damaged since still holds it),
 * is not behind on deletions while another replica is up to date, and its node is present (not DEAD, unless in
 * maintenance). It <em>counts</em> unless its node is leaving the cluster. For a CLOSED container the planner
 * copies until enough replicas count, the containers with the fewest first; then makes a container that sits on one
 * rack span two; then deletes extras (from the most crowded rack) and unhealthy replicas, but only once enough
 * healthy ones exist and no copy is under way. A QUASI_CLOSED container (its pipeline was lost) is closed by a
 * replica holding its highest committed write once no replica is still open and no member is STALE; never by a
 * shorter one. Nothing is sent to a STALE node and a STALE node's replicas still count: a node briefly cut off is
 * not a reason to copy. A node in maintenance keeps its replicas counted, as long as {@code maintenanceMinimum} of
 * them are on in-service nodes.
 */
public final class ReplicationPlanner {
  private final int perNodeLimit;
  private final double inFlightFactor;
  private final int maintenanceMinimum;

  /**
   * @param perNodeLimit copies a node may be receiving at once
   * @param inFlightFactor the cluster's copies under way are at most this times the healthy nodes times
   *     {@code perNodeLimit}; 0 for no cluster limit
   * @param maintenanceMinimum healthy replicas a container keeps on in-service nodes while others are in
   *     maintenance (at most its need)
   */
  public ReplicationPlanner(int perNodeLimit, double inFlightFactor, int maintenanceMinimum) {
    this.perNodeLimit = perNodeLimit;
    this.inFlightFactor = inFlightFactor;
    this.maintenanceMinimum = maintenanceMinimum;
  }

  /** The actions to take now, and what was found of each container. */
  public record Plan(List<ReplicationAction> actions, Map<Long, ContainerHealth> health) {
  }

  public Plan plan(Collection<ContainerView> containers, Map<UUID, ReplicaNode> nodes,
      Collection<InFlight> inFlight) {
    long healthyNodes = nodes.values().stream().filter(ReplicaNode::commandable).count();
    int globalLimit = inFlightFactor <= 0 ? 0
        : (int) Math.max(1, Math.floor(inFlightFactor * healthyNodes * perNodeLimit));
    ReplicationRound round = new ReplicationRound(perNodeLimit, globalLimit, inFlight);
    Map<Long, List<InFlight>> pending = inFlight.stream().collect(Collectors.groupingBy(InFlight::containerId));
    Map<Long, ContainerHealth> health = new TreeMap<>();
    List<ContainerView> mostAtRiskFirst = containers.stream()
        .sorted(Comparator.comparingInt((ContainerView c) -> countingReplicas(c, nodes))
            .thenComparingLong(ContainerView::id))
        .toList();
    for (ContainerView c : mostAtRiskFirst) {
      List<InFlight> mine = pending.getOrDefault(c.id(), List.of());
      health.put(c.id(), switch (c.state()) {
        case CONTAINER_CLOSED -> planClosed(c, nodes, mine, round);
        case CONTAINER_QUASI_CLOSED -> planQuasiClosed(c, nodes, round);
        default -> ContainerHealth.OPEN;
      });
    }
    return new Plan(round.actions(), health);
  }

  /** Closed, uncorrupted replicas on present nodes that count: what makes one container more at risk. */
  private static int countingReplicas(ContainerView c, Map<UUID, ReplicaNode> nodes) {
    return (int) c.replicas().stream().filter(r -> r.state() == ContainerState.CONTAINER_CLOSED && !r.reportedBad())
        .map(r -> nodes.get(r.node())).filter(n -> n != null && n.present() && n.counts()).count();
  }

  private ContainerHealth planQuasiClosed(ContainerView c, Map<UUID, ReplicaNode> nodes, ReplicationRound round) {
    if (!c.written() && c.replicas().isEmpty() && neverWrittenForSure(c, nodes)) {
      round.add(new ReplicationAction.ForgetEmpty(c.id()));
      return ContainerHealth.QUASI_CLOSED;
    }
    List<Replica> live = live(c, nodes);
    boolean waiting = c.members().stream().map(nodes::get)
        .anyMatch(n -> n != null && n.present() && !n.commandable());
    for (Replica r : live) {
      ReplicaNode node = nodes.get(r.node());
      waiting |= !node.commandable();
      if (isOpen(r.state())) {
        waiting = true;
        if (node.commandable()) {
          round.add(new ReplicationAction.QuasiClose(c.id(), r.node()));
        }
      }
    }
    if (waiting) {
      return ContainerHealth.QUASI_CLOSED;
    }
    long highest = c.highestBcsid();
    List<Replica> complete = live.stream().filter(r -> isSettled(r.state()) && r.bcsid() >= highest).toList();
    if (complete.isEmpty()) {
      // Every replica holding the last committed write is away (or damaged): closing a shorter one would
      // make it count as whole; wait for one to come back.
      return ContainerHealth.MISSING;
    }
    if (complete.stream().anyMatch(r -> r.state() == ContainerState.CONTAINER_CLOSED)) {
      round.add(new ReplicationAction.MarkClosed(c.id()));
    } else {
      complete.forEach(r -> round.add(new ReplicationAction.ForceClose(c.id(), r.node())));
    }
    return ContainerHealth.QUASI_CLOSED;
  }

  /**
   * Whether no replica of a container no replica was ever reported of can hold an acknowledged block: a block is
   * acknowledged once a majority of the members applied it, so it would be on one of any {@code n - majority + 1}
   * members. Enough members must be HEALTHY and out of the pipeline's group (and have reported nothing), and none
   * STALE (it may still report). A
   * DEAD member need not come back: one lost for good would otherwise keep the container counted MISSING for
   * ever.
   */
  private static boolean neverWrittenForSure(ContainerView c, Map<UUID, ReplicaNode> nodes) {
    List<ReplicaNode> members = c.members().stream().map(nodes::get).toList();
    // Only a member that has left the pipeline's group reports for good: one still in it may apply an
    // acknowledged write it has not reported yet (SCM once forgot such a container right after its first write).
    long healthy = members.stream().filter(n -> n != null && n.commandable()
        && c.membersOutOfPipeline().contains(n.id())).count();
    boolean stale = members.stream().anyMatch(n -> n != null && n.present() && !n.commandable());
    int majority = c.members().size() / 2 + 1;
    return !stale && healthy >= c.members().size() - majority + 1;
  }

  private ContainerHealth planClosed(ContainerView c, Map<UUID, ReplicaNode> nodes, List<InFlight> pending,
      ReplicationRound round) {
    List<Replica> live = live(c, nodes);
    long highest = c.highestBcsid();
    // A replica behind on deletions holds every block, and maybe deleted ones for good: it is replaced once an
    // up-to-date replica can be copied, and serves as it is until then.
    boolean upToDateCopyExists = live.stream().anyMatch(r -> r.state() == ContainerState.CONTAINER_CLOSED
        && r.bcsid() >= highest && !r.reportedBad() && !r.behindOnDeletions());
    List<Replica> healthy = new ArrayList<>();
    List<Replica> unhealthy = new ArrayList<>();
    for (Replica r : live) {
      boolean reachable = nodes.get(r.node()).commandable();
      boolean complete = isSettled(r.state()) && r.bcsid() >= highest && !r.reportedBad()
          && !(r.behindOnDeletions() && upToDateCopyExists);
      if (complete && r.state() == ContainerState.CONTAINER_CLOSED) {
        healthy.add(r);
      } else if (complete) {
        if (reachable) {
          round.add(new ReplicationAction.ForceClose(c.id(), r.node()));
        }
      } else if (isOpen(r.state())) {
        if (reachable) {
          round.add(new ReplicationAction.QuasiClose(c.id(), r.node()));
        }
      } else {
        unhealthy.add(r);
      }
    }
    if (healthy.isEmpty()) {
      return ContainerHealth.MISSING;
    }
    Set<UUID> copyTargets = nodesOf(pending, InFlight.Kind.COPY);
    Set<UUID> deleting = nodesOf(pending, InFlight.Kind.DELETE);
    List<ReplicaNode> kept = healthy.stream().map(r -> nodes.get(r.node()))
        .filter(n -> n.counts() && !deleting.contains(n.id())).toList();
    Map<String, Integer> racks = new HashMap<>();
    kept.forEach(n -> racks.merge(n.rack(), 1, Integer::sum));
    copyTargets.stream().map(nodes::get).filter(Objects::nonNull).forEach(n -> racks.merge(n.rack(), 1, Integer::sum));
    int replicas = kept.size() + copyTargets.size();
    Set<UUID> excluded = new HashSet<>(copyTargets);
    c.replicas().forEach(r -> excluded.add(r.node()));
    long bytes = healthy.stream().mapToLong(Replica::usedBytes).max().orElse(0);
    List<ReplicaNode> holders = healthy.stream().map(r -> nodes.get(r.node())).toList();
    CopyRequest copy = new CopyRequest(c.id(), bytes, holders, nodes.values(), racks, excluded);

    int inService = (int) kept.stream().filter(ReplicaNode::inService).count() + copyTargets.size();
    int missing = Math.max(c.required() - replicas, Math.min(c.required(), maintenanceMinimum) - inService);
    if (missing > 0) {
      for (int i = 0; i < missing; i++) {
        if (!copy(copy, false, round)) {
          makeRoom(c.id(), unhealthy, nodes, bytes, deleting, round);
          break;
        }
      }
      return ContainerHealth.UNDER_REPLICATED;
    }
    if (c.required() > 1 && racks.size() == 1 && copy(copy, true, round)) {
      return ContainerHealth.MIS_REPLICATED;
    }
    if (replicas > c.required() && copyTargets.isEmpty()) {
      deleteExtras(c.id(), kept.stream().filter(ReplicaNode::deletable).toList(), replicas - c.required(), racks,
          round);
      return ContainerHealth.OVER_REPLICATED;
    }
    if (!unhealthy.isEmpty()) {
      if (copyTargets.isEmpty()) {
        unhealthy.stream().filter(r -> nodes.get(r.node()).commandable() && !deleting.contains(r.node()))
            .forEach(r -> round.add(new ReplicationAction.Delete(c.id(), r.node())));
      }
      return ContainerHealth.UNHEALTHY_REPLICAS;
    }
    return ContainerHealth.HEALTHY;
  }

  /** What choosing a copy of one container needs; {@code racks} and {@code excluded} grow with each copy. */
  private record CopyRequest(long containerId, long bytes, List<ReplicaNode> holders, Collection<ReplicaNode> nodes,
      Map<String, Integer> racks, Set<UUID> excluded) {
  }

  /** Plans one copy if a source, a target (on a rack without a replica, if asked) and room allow; false if not. */
  private static boolean copy(CopyRequest request, boolean newRack, ReplicationRound round) {
    List<UUID> sources = CopyPlacement.sources(request.containerId(), request.holders(), round);
    if (sources.isEmpty() || !round.mayCopy()) {
      return false;
    }
    Optional<ReplicaNode> target = CopyPlacement.target(request.containerId(), request.bytes(), request.nodes(),
        request.racks(), request.excluded(), round)
        .filter(t -> !newRack || !request.racks().containsKey(t.rack()));
    target.ifPresent(t -> {
      round.copy(request.containerId(), t.id(), sources);
      request.racks().merge(t.rack(), 1, Integer::sum);
      request.excluded().add(t.id());
    });
    return target.isPresent();
  }

  /**
   * No node can take a copy: deletes one unhealthy replica on a node that could take a healthy one instead (on a
   * cluster as small as the replica count, the damaged replica's node is the only place left).
   */
  private static void makeRoom(long containerId, List<Replica> unhealthy, Map<UUID, ReplicaNode> nodes, long bytes,
      Set<UUID> deleting, ReplicationRound round) {
    if (!deleting.isEmpty()) {
      return;
    }
    unhealthy.stream().map(r -> nodes.get(r.node())).filter(n -> n.canReceive(bytes) && round.mayReceive(n.id()))
        .min(Comparator.comparing(ReplicaNode::id))
        .ifPresent(n -> round.add(new ReplicationAction.Delete(containerId, n.id())));
  }

  /** Deletes {@code count} of the candidates, each from the rack with the most replicas left. */
  private static void deleteExtras(long containerId, List<ReplicaNode> candidates, int count,
      Map<String, Integer> racks, ReplicationRound round) {
    List<ReplicaNode> left = new ArrayList<>(candidates);
    for (int i = 0; i < count && !left.isEmpty(); i++) {
      ReplicaNode victim = left.stream().max(Comparator.comparingInt((ReplicaNode n) -> racks.get(n.rack()))
          .thenComparing(Comparator.comparingLong(ReplicaNode::freeBytes).reversed())
          .thenComparing(ReplicaNode::id)).orElseThrow();
      left.remove(victim);
      racks.merge(victim.rack(), -1, Integer::sum);
      round.add(new ReplicationAction.Delete(containerId, victim.id()));
    }
  }

  private static List<Replica> live(ContainerView c, Map<UUID, ReplicaNode> nodes) {
    return c.replicas().stream().filter(r -> {
      ReplicaNode n = nodes.get(r.node());
      return n != null && n.present();
    }).toList();
  }

  private static Set<UUID> nodesOf(List<InFlight> pending, InFlight.Kind kind) {
    return pending.stream().filter(f -> f.kind() == kind).map(InFlight::node).collect(Collectors.toSet());
  }

  private static boolean isOpen(ContainerState state) {
    return state == ContainerState.CONTAINER_OPEN || state == ContainerState.CONTAINER_CLOSING;
  }

  private static boolean isSettled(ContainerState state) {
    return state == ContainerState.CONTAINER_CLOSED || state == ContainerState.CONTAINER_QUASI_CLOSED;
  }
}
