package org.tropos.scm.container;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.node.NodeManager;

/**
 * What SCM does differently for erasure-coded containers (ARCHITECTURE.md, "Erasure coding"): each member holds
 * one replica index, written by clients straight to it, so there is no pipeline to close when a member is lost,
 * and a container may close without an index that reconstruction rebuilds later.
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class EcContainers {
  private static final Logger LOG = LoggerFactory.getLogger(EcContainers.class);

  private final ContainerTable table;
  private final ReplicaMap replicas;
  private final NodeManager nodes;

  EcContainers(ContainerTable table, ReplicaMap replicas, NodeManager nodes) {
    this.table = table;
    this.replicas = replicas;
    this.nodes = nodes;
  }

  /**
   * Where the container's indexes are, by index: each reported replica with the index it reported and, while the
   * container is written or before any report, each member with the index it was given.
   */
  ContainerInfo info(ContainerRecord c) {
    Map<UUID, Integer> indexes = new LinkedHashMap<>();
    replicas.of(c.getContainerId()).forEach((node, report) -> indexes.put(node, report.getReplicaIndex()));
    boolean written = c.getState() == ContainerState.CONTAINER_OPEN
        || c.getState() == ContainerState.CONTAINER_CLOSING;
    if (written || indexes.isEmpty()) {
      for (int i = 0; i < c.getMembersCount(); i++) {
        indexes.putIfAbsent(Uuids.fromProto(c.getMembers(i)), i + 1);
      }
    }
    ContainerInfo.Builder info = ContainerInfo.newBuilder().setContainerId(c.getContainerId()).setState(c.getState())
        .setEc(c.getEc());
    indexes.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e -> nodes.node(e.getKey())
        .ifPresent(node -> info.addReplicas(node.details()).addReplicaIndexes(e.getValue())));
    return info.build();
  }

  /**
   * Whether a CLOSING container is closed: every member not DEAD reported its replica CLOSED or UNHEALTHY, and at
   * least {@code data} CLOSED. An index lost with its node, or on a replica found damaged (which takes no more
   * writes either), is rebuilt from the others once the container is CLOSED; waiting for a damaged replica to close
   * would leave the container CLOSING, and the index unrebuilt, for good.
   */
  boolean closed(ContainerRecord c) {
    Map<UUID, ContainerReport> reported = replicas.of(c.getContainerId());
    List<ContainerState> states = c.getMembersList().stream().map(Uuids::fromProto)
        .filter(m -> nodes.node(m).map(n -> n.state() != NodeState.DEAD).orElse(false))
        .map(m -> reported.containsKey(m) ? reported.get(m).getState() : ContainerState.CONTAINER_STATE_UNSPECIFIED)
        .toList();
    return states.stream().filter(s -> s == ContainerState.CONTAINER_CLOSED).count() >= c.getEc().getData()
        && states.stream().allMatch(s -> s == ContainerState.CONTAINER_CLOSED
            || s == ContainerState.CONTAINER_UNHEALTHY);
  }

  /** Every erasure-coded container with its reported replicas, for reconstruction. */
  List<EcContainerView> views() {
    List<EcContainerView> views = new ArrayList<>();
    for (ContainerRecord c : table.all()) {
      if (c.hasEc()) {
        List<EcContainerView.IndexReplica> reported = new ArrayList<>();
        replicas.of(c.getContainerId()).forEach((node, r) -> reported.add(new EcContainerView.IndexReplica(node,
            r.getReplicaIndex(), r.getState(), r.getUsedBytes(), c.getBadReplicasList().contains(Uuids.toProto(node))
                || r.getState() == ContainerState.CONTAINER_UNHEALTHY)));
        views.add(new EcContainerView(c.getContainerId(), c.getState(), EcReplication.fromProto(c.getEc()),
            reported));
      }
    }
    return views;
  }

  /** A DEAD member's OPEN containers take no more groups; returns those it moved to CLOSING. */
  Set<Long> memberDead(UUID datanode) {
    Set<Long> closing = new HashSet<>();
    for (ContainerRecord c : List.copyOf(table.all())) {
      if (c.hasEc() && c.getMembersList().contains(Uuids.toProto(datanode))
          && close(c, "its member " + datanode + " is DEAD")) {
        closing.add(c.getContainerId());
      }
    }
    return closing;
  }

  /**
   * A container that lost a member while written takes no more groups: CLOSING, closed on the members left (the
   * writer of a group whose member failed closes the group and goes on in another). Returns whether it was OPEN.
   */
  boolean close(ContainerRecord c, String why) {
    if (c.getState() != ContainerState.CONTAINER_OPEN) {
      return false;
    }
    table.saveQuietly(ContainerStates.moved(c, ContainerState.CONTAINER_CLOSING));
    LOG.info("Erasure-coded container {} is CLOSING: {}", c.getContainerId(), why);
    return true;
  }
}
