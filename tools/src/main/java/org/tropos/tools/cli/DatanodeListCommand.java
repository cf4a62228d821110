package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.conf.DataSize;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.DatanodeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tropos admin datanode list}: the datanodes SCM knows, with rack, health and storage. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = "List datanodes: id, host, rack, health, operational state, healthy/all volumes, pipelines,"
        + " leaders, used/capacity.")
public final class DatanodeListCommand implements Callable<Integer> {
  private static final String FORMAT = "%-36s  %-16s  %-10s  %-7s  %-20s  %-7s  %-9s  %-7s  %s%n";

  @Mixin
  private ConfigOptions config;

  @Option(names = "--state", paramLabel = "STATE", description = "Only HEALTHY, STALE or DEAD nodes.")
  private NodeState state;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (ScmAdminClient scm = ScmAdminClient.connect(config.loadForClient())) {
      List<DatanodeStatus> nodes = scm.listDatanodes(state == null ? NodeState.NODE_STATE_UNSPECIFIED : state);
      PrintWriter out = spec.commandLine().getOut();
      out.printf(FORMAT, "ID", "HOST", "RACK", "STATE", "OPERATIONAL STATE", "VOLUMES", "PIPELINES", "LEADERS",
          "USED/CAPACITY");
      for (DatanodeStatus node : nodes) {
        out.printf(FORMAT, uuid(node), node.getDetails().getHostName(), node.getDetails().getNetworkLocation(),
            node.getState(), node.getOperationalState(), volumes(node.getLastReport().getVolumesList()),
            node.getPipelineCount(),
            node.getLeaderCount(), usage(node.getLastReport().getVolumesList()));
      }
      out.flush();
      return ExitCodes.OK;
    }
  }

  private static String uuid(DatanodeStatus node) {
    return org.tropos.common.util.Uuids.fromProto(node.getDetails().getUuid()).toString();
  }

  private static String volumes(List<VolumeReport> volumes) {
    long healthy = volumes.stream().filter(v -> v.getState() == StorageState.NORMAL).count();
    return healthy + "/" + volumes.size();
  }

  private static String usage(List<VolumeReport> volumes) {
    long used = volumes.stream().mapToLong(VolumeReport::getUsedBytes).sum();
    long capacity = volumes.stream().mapToLong(VolumeReport::getCapacityBytes).sum();
    return DataSize.ofBytes(used).toHumanString() + "/" + DataSize.ofBytes(capacity).toHumanString();
  }
}
