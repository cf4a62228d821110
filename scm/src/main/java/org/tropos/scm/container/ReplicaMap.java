package org.tropos.scm.container;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.tropos.proto.hdds.ContainerReport;

/**
 * The replicas each datanode last reported. A heartbeat lists every replica its datanode holds, so a replica
 * missing from one is gone (deleted, or lost with its disk) and leaves the map. Rebuilt from heartbeats after an
 * SCM restart. Each replica gets an incarnation number when it appears: one that went and came back (made again
 * by a copy, or by its pipeline's log replayed onto an emptied disk) is a new replica, which has done nothing the
 * old one did.
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class ReplicaMap {
  private final Map<Long, Map<UUID, ContainerReport>> byContainer = new HashMap<>();
  private final Map<UUID, Set<Long>> byNode = new HashMap<>();
  private final Map<Long, Map<UUID, Long>> incarnations = new HashMap<>();
  private long lastIncarnation;

  /**
   * Replaces what {@code node} holds by its report (only containers {@code known} to SCM are kept).
   *
   * @return the containers it reported before and no longer holds
   */
  Set<Long> replace(UUID node, List<ContainerReport> reports, Set<Long> known) {
    Set<Long> before = byNode.getOrDefault(node, Set.of());
    Set<Long> now = new HashSet<>();
    for (ContainerReport report : reports) {
      if (known.contains(report.getContainerId())) {
        now.add(report.getContainerId());
        byContainer.computeIfAbsent(report.getContainerId(), k -> new HashMap<>()).put(node, report);
        incarnations.computeIfAbsent(report.getContainerId(), k -> new HashMap<>())
            .computeIfAbsent(node, n -> ++lastIncarnation);
      }
    }
    Set<Long> gone = new HashSet<>(before);
    gone.removeAll(now);
    for (long id : gone) {
      Map<UUID, ContainerReport> replicas = byContainer.get(id);
      replicas.remove(node);
      if (replicas.isEmpty()) {
        byContainer.remove(id);
      }
      Map<UUID, Long> numbers = incarnations.get(id);
      numbers.remove(node);
      if (numbers.isEmpty()) {
        incarnations.remove(id);
      }
    }
    byNode.put(node, now);
    return gone;
  }

  /** The containers whose replicas {@code node} last reported. */
  Set<Long> reportedBy(UUID node) {
    return byNode.getOrDefault(node, Set.of());
  }

  /** Whether {@code node} has reported since SCM started (a DEAD node's empty report counts). */
  boolean hasReport(UUID node) {
    return byNode.containsKey(node);
  }

  /** The incarnation of the replica {@code node} holds of the container; 0 if it reported none. */
  long incarnation(long containerId, UUID node) {
    return incarnations.getOrDefault(containerId, Map.of()).getOrDefault(node, 0L);
  }

  /** The last report of each replica of the container, by datanode. */
  Map<UUID, ContainerReport> of(long containerId) {
    return byContainer.getOrDefault(containerId, Map.of());
  }
}
