package org.tropos.scm.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.scm.DatanodeAdminResult;
import org.tropos.proto.scm.ScmResult;

/**
 * The administrator's verbs on datanodes (Ozone's): decommission, recommission, maintenance. Each host is handled
 * on its own: a host that names no datanode, or a node that cannot make the move, gets an error and nothing
 * changes for it; the others proceed. Repeating a verb is harmless. Draining itself (pipelines closed, replicas
 * made elsewhere, then DECOMMISSIONED or IN_MAINTENANCE) is done by the pipeline and replication managers.
 *
 * <pre>
 * IN_SERVICE ──decommission──▶ DECOMMISSIONING ──(replicas elsewhere)──▶ DECOMMISSIONED
 * IN_SERVICE ──maintenance──▶ ENTERING_MAINTENANCE ──(replicas elsewhere)──▶ IN_MAINTENANCE ──(end time)──▶ IN_SERVICE
 * any ──recommission──▶ IN_SERVICE; a node in maintenance may be decommissioned
 * </pre>
 */
public final class DatanodeAdmin {
  private final NodeManager nodes;
  private final Clock clock;

  public DatanodeAdmin(NodeManager nodes, Clock clock) {
    this.nodes = nodes;
    this.clock = clock;
  }

  public List<DatanodeAdminResult> decommission(List<String> hosts) {
    return forEach(hosts, node -> switch (node.operationalState()) {
      case DECOMMISSIONING, DECOMMISSIONED -> node.operationalState();
      default -> move(node, NodeOperationalState.DECOMMISSIONING, 0);
    });
  }

  public List<DatanodeAdminResult> recommission(List<String> hosts) {
    return forEach(hosts, node -> node.inService() ? NodeOperationalState.IN_SERVICE
        : move(node, NodeOperationalState.IN_SERVICE, 0));
  }

  /** @param endAfterHours hours until the nodes return to service by themselves; 0 = until recommissioned */
  public List<DatanodeAdminResult> startMaintenance(List<String> hosts, int endAfterHours) {
    long end = endAfterHours == 0 ? 0 : clock.wallTime().plus(Duration.ofHours(endAfterHours)).toEpochMilli();
    return forEach(hosts, node -> switch (node.operationalState()) {
      case IN_SERVICE -> move(node, NodeOperationalState.ENTERING_MAINTENANCE, end);
      case ENTERING_MAINTENANCE, IN_MAINTENANCE -> move(node, node.operationalState(), end);
      default -> throw new ScmException(ScmResult.INVALID_REQUEST, "it is " + node.operationalState()
          + "; recommission it before maintenance");
    });
  }

  /** What a verb does to one node; returns the state it leaves the node in. */
  @FunctionalInterface
  private interface Verb {
    NodeOperationalState apply(NodeStatus node) throws ScmException;
  }

  private NodeOperationalState move(NodeStatus node, NodeOperationalState to, long maintenanceEnd)
      throws ScmException {
    nodes.setOperationalState(node.id(), to, maintenanceEnd);
    return to;
  }

  private List<DatanodeAdminResult> forEach(List<String> hosts, Verb verb) {
    List<DatanodeAdminResult> results = new ArrayList<>();
    for (String host : hosts) {
      DatanodeAdminResult.Builder result = DatanodeAdminResult.newBuilder().setHost(host);
      try {
        Optional<UUID> id = nodes.find(host);
        if (id.isEmpty()) {
          throw new ScmException(ScmResult.INVALID_REQUEST, "no datanode is named " + host);
        }
        result.setUuid(Uuids.toProto(id.get()));
        NodeStatus node = nodes.node(id.get()).orElseThrow();
        result.setOperationalState(verb.apply(node));
      } catch (ScmException e) {
        result.setError(e.getMessage());
      }
      results.add(result.build());
    }
    return results;
  }
}
