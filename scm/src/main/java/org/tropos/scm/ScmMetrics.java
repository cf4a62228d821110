package org.tropos.scm;

import java.util.Map;
import java.util.TreeMap;
import org.tropos.common.http.PrometheusText;
import org.tropos.proto.scm.HealthCount;
import org.tropos.proto.scm.ReplicationReport;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.node.NodeStatus;
import org.tropos.scm.replication.ReplicationManager;

/**
 * SCM's metrics on its status port: datanodes by health and operational state, containers by state and by health
 * class (the figures of {@code tropos admin container report}), and replication's work.
 */
final class ScmMetrics {
  private final NodeManager nodes;
  private final ContainerManager containers;
  private final ReplicationManager replication;

  ScmMetrics(NodeManager nodes, ContainerManager containers, ReplicationManager replication) {
    this.nodes = nodes;
    this.containers = containers;
    this.replication = replication;
  }

  String prometheus() {
    Map<String, Integer> health = new TreeMap<>();
    Map<String, Integer> operational = new TreeMap<>();
    for (NodeStatus n : nodes.nodes()) {
      health.merge(n.state().name(), 1, Integer::sum);
      operational.merge(n.operationalState().name(), 1, Integer::sum);
    }
    Map<String, Integer> states = new TreeMap<>();
    containers.replicationViews().forEach(c -> states.merge(c.state().name(), 1, Integer::sum));
    ReplicationReport report = replication.report();
    Map<String, Long> classes = new TreeMap<>();
    for (HealthCount c : report.getCountsList()) {
      classes.put(c.getHealth().name(), c.getCount());
    }
    return new PrometheusText()
        .gauge("scm_datanodes", "Datanodes by health.", "state", health)
        .gauge("scm_datanodes_operational", "Datanodes by operational state.", "state", operational)
        .gauge("scm_containers", "Containers by state.", "state", states)
        .gauge("scm_containers_health", "Containers by health class, as the replication manager last found them.",
            "health", classes)
        .gauge("scm_replication_copies_in_flight", "Container copies sent and not yet seen done.",
            report.getCopiesInFlight())
        .gauge("scm_replication_deletions_in_flight", "Replica deletions sent and not yet seen done.",
            report.getDeletionsInFlight())
        .counter("scm_replication_copies_sent_total", "Container copies sent.", replication.copiesSent())
        .counter("scm_replication_deletions_sent_total", "Replica deletions sent.", replication.deletionsSent())
        .toString();
  }
}
