package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.time.Instant;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.conf.DataSize;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.scm.ContainerDetails;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.proto.scm.HealthCount;
import org.tropos.proto.scm.ReplicaInfo;
import org.tropos.proto.scm.ReplicationReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tropos admin container list|info|report}: containers, their replicas and their health. */
@Command(name = "container", mixinStandardHelpOptions = true, description = "Containers and their replicas.",
    subcommands = {ContainerCommands.ListContainers.class, ContainerCommands.Info.class,
        ContainerCommands.Report.class})
public final class ContainerCommands {
  private static final String ROW = "%-12s  %-20s  %-18s  %-16s  %-8s  %-10s  %s%n";
  private static final String REPLICA = "    %-5s  %-16s  %-10s  %-8s  %-20s  %-20s  %-10s  %-10s  %s%n";

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List containers: id, state, health, replication, replicas reported/needed, blocks, used.")
  static final class ListContainers extends ScmAdminCall {
    @Option(names = "--state", paramLabel = "STATE", description = "Only containers in this state (e.g."
        + " CONTAINER_CLOSED).")
    ContainerState state;

    @Option(names = "--health", paramLabel = "HEALTH", description = "Only containers in this health class"
        + " (e.g. UNDER_REPLICATED).")
    ContainerHealth health;

    @Option(names = "--start", paramLabel = "ID", defaultValue = "0", description = "List from this container id.")
    long start;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1000", description = "List at most N (default"
        + " 1000).")
    int count;

    @Override
    int run(ScmAdminClient scm, PrintWriter out) throws ScmException {
      out.printf(ROW, "ID", "STATE", "HEALTH", "REPLICATION", "REPLICAS", "BLOCKS", "USED");
      for (ContainerSummary c : scm.listContainers(state == null ? ContainerState.CONTAINER_STATE_UNSPECIFIED
          : state, health == null ? ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED : health, start, count)) {
        row(c, out);
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true,
      description = "One container and each replica: its index (erasure-coded containers), node, rack, state, node"
          + " state, bcsid, blocks, used, when its checksums were last verified.")
  static final class Info extends ScmAdminCall {
    @Parameters(paramLabel = "ID", description = "The container's id.")
    long id;

    @Override
    int run(ScmAdminClient scm, PrintWriter out) throws ScmException {
      ContainerDetails details = scm.container(id);
      out.printf(ROW, "ID", "STATE", "HEALTH", "REPLICATION", "REPLICAS", "BLOCKS", "USED");
      row(details.getSummary(), out);
      if (details.getSummary().hasPipelineId()) {
        out.printf("  pipeline %s%n", Uuids.fromProto(details.getSummary().getPipelineId().getId()));
      }
      out.printf(REPLICA, "INDEX", "HOST", "RACK", "NODE", "OPERATIONAL STATE", "REPLICA", "BCSID", "BLOCKS",
          "VERIFIED");
      for (ReplicaInfo r : details.getReplicasList()) {
        out.printf(REPLICA, r.getReplicaIndex() == 0 ? "-" : r.getReplicaIndex(), r.getDatanode().getHostName(),
            r.getDatanode().getNetworkLocation(), r.getNodeState(),
            r.getOperationalState(), r.getState() + (r.getReportedBad() ? " (bad)" : ""), r.getBcsid(),
            r.getBlockCount(), r.getDataScanEpochMs() == 0 ? "never" : Instant.ofEpochMilli(r.getDataScanEpochMs()));
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "report", mixinStandardHelpOptions = true,
      description = "How many containers the replication manager's last round found in each health class, also by"
          + " replication class (RATIS/THREE, EC/rs-6-3-1024k), and"
          + " the copies and deletions under way.")
  static final class Report extends ScmAdminCall {
    @Override
    int run(ScmAdminClient scm, PrintWriter out) throws ScmException {
      ReplicationReport report = scm.replicationReport();
      out.printf("Containers: %d (last checked %s)%n", report.getContainers(), report.getLastRunEpochMs() == 0
          ? "not yet" : Instant.ofEpochMilli(report.getLastRunEpochMs()));
      for (ContainerHealth h : ContainerHealth.values()) {
        if (h != ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED && h != ContainerHealth.UNRECOGNIZED) {
          long n = report.getCountsList().stream().filter(c -> c.getHealth() == h).mapToLong(HealthCount::getCount)
              .sum();
          out.printf("  %-20s %d%n", h, n);
        }
      }
      if (report.getClassCountsCount() > 0) {
        out.println("By replication:");
        report.getClassCountsList().forEach(c -> out.printf("  %-20s %-20s %d%n", c.getReplication(), c.getHealth(),
            c.getCount()));
      }
      out.printf("Copies under way: %d; replica deletions under way: %d%n", report.getCopiesInFlight(),
          report.getDeletionsInFlight());
      return ExitCodes.OK;
    }
  }

  private static void row(ContainerSummary c, PrintWriter out) {
    out.printf(ROW, c.getContainerId(), c.getState(), c.getHealth() == ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED
        ? "-" : c.getHealth(), c.getReplication(), c.getReplicaCount() + "/" + c.getRequired(), c.getBlockCount(),
        DataSize.ofBytes(c.getUsedBytes()).toHumanString());
  }
}
