package org.tropos.scm.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The tallies of one planning round: copies under way per target and per source (sent earlier and planned now),
 * against the per-node and cluster limits, and the actions planned so far.
 */
final class ReplicationRound {
  private final int perNodeLimit;
  private final int globalLimit;
  private final Map<UUID, Integer> copiesTo = new HashMap<>();
  private final Map<UUID, Integer> copiesFrom = new HashMap<>();
  private final List<ReplicationAction> actions = new ArrayList<>();
  private int copies;

  ReplicationRound(int perNodeLimit, int globalLimit, Collection<InFlight> inFlight) {
    this.perNodeLimit = perNodeLimit;
    this.globalLimit = globalLimit;
    inFlight.stream().filter(f -> f.kind() == InFlight.Kind.COPY).forEach(f -> count(f.node(), f.source()));
  }

  private void count(UUID target, UUID source) {
    copiesTo.merge(target, 1, Integer::sum);
    if (source != null) {
      copiesFrom.merge(source, 1, Integer::sum);
    }
    copies++;
  }

  /** False once the cluster has as many copies under way as it allows. */
  boolean mayCopy() {
    return globalLimit <= 0 || copies < globalLimit;
  }

  boolean mayReceive(UUID target) {
    return copiesTo(target) < perNodeLimit;
  }

  int copiesTo(UUID node) {
    return copiesTo.getOrDefault(node, 0);
  }

  int copiesFrom(UUID node) {
    return copiesFrom.getOrDefault(node, 0);
  }

  void copy(long containerId, UUID target, List<UUID> sources) {
    count(target, sources.get(0));
    actions.add(new ReplicationAction.Copy(containerId, target, sources));
  }

  void add(ReplicationAction action) {
    actions.add(action);
  }

  List<ReplicationAction> actions() {
    return List.copyOf(actions);
  }
}
