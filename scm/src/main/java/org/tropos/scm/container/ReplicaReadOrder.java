package org.tropos.scm.container;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.node.NodeStatus;

/** The order in which a reader is offered a container's replicas: nearest first, reported-bad and DEAD ones last. */
final class ReplicaReadOrder {
  private ReplicaReadOrder() {
  }

  /**
   * {@code holders} of container {@code c}, nearest to {@code clientHost} (on {@code clientRack}) first. Ties are
   * broken by a hash of (container, node): the same order whatever order the replicas reported in, and different
   * containers' reads spread over different nodes.
   */
  static List<DatanodeDetails> order(List<NodeStatus> holders, ContainerRecord c, String clientHost,
      String clientRack) {
    List<NodeStatus> sorted = new ArrayList<>(holders);
    sorted.sort(Comparator.comparingInt((NodeStatus n) -> distance(n, c, clientHost, clientRack))
        .thenComparingInt(n -> Objects.hash(c.getContainerId(), n.details().getUuid().getLeastSignificantBits(),
            n.details().getUuid().getMostSignificantBits())));
    return sorted.stream().map(NodeStatus::details).toList();
  }

  /** 0 same host, 1 same rack, 2 elsewhere; + 10 if a reader reported the replica bad; + 20 if its node is DEAD. */
  private static int distance(NodeStatus holder, ContainerRecord c, String clientHost, String clientRack) {
    DatanodeDetails replica = holder.details();
    int d = replica.getHostName().equals(clientHost) || replica.getIpAddress().equals(clientHost) ? 0
        : replica.getNetworkLocation().equals(clientRack) ? 1 : 2;
    d += c.getBadReplicasList().contains(replica.getUuid()) ? 10 : 0;
    return holder.state() == NodeState.DEAD ? d + 20 : d;
  }
}
