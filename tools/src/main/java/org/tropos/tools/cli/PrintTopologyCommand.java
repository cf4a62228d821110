package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.tropos.client.ScmAdminClient;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.DatanodeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tropos admin printTopology}: datanodes by state, each with its rack, as Ozone prints them. */
@Command(name = "printTopology", mixinStandardHelpOptions = true,
    description = "Print the datanodes by state with their racks.")
public final class PrintTopologyCommand implements Callable<Integer> {
  @Mixin
  private ConfigOptions config;

  @Spec
  private CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (ScmAdminClient scm = ScmAdminClient.connect(config.loadForClient())) {
      Map<NodeState, List<DatanodeStatus>> byState = scm.listDatanodes(NodeState.NODE_STATE_UNSPECIFIED).stream()
          .collect(Collectors.groupingBy(DatanodeStatus::getState, TreeMap::new, Collectors.toList()));
      PrintWriter out = spec.commandLine().getOut();
      byState.forEach((state, nodes) -> {
        out.println("State = " + state);
        nodes.forEach(n -> out.printf(" %s(%s)    %s%n", n.getDetails().getIpAddress(),
            n.getDetails().getHostName(), n.getDetails().getNetworkLocation()));
      });
      out.flush();
      return ExitCodes.OK;
    }
  }
}
