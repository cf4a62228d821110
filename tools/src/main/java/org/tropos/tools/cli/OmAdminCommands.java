package org.tropos.tools.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tropos.client.TroposClient;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.GetOmRoleResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tropos admin om roles|transfer}: the OMs of an HA service (ozone.om.service.ids). */
@Command(name = "om", mixinStandardHelpOptions = true, description = "The OMs of the service and their leader.",
    subcommands = {OmAdminCommands.Roles.class, OmAdminCommands.Transfer.class})
public final class OmAdminCommands {
  private static final String ROW = "%-12s %-22s %-10s %6s  %-12s %s%n";

  @Command(name = "roles", mixinStandardHelpOptions = true,
      description = "Each OM's node id, address, role (LEADER, FOLLOWER, CANDIDATE; SINGLE without HA), term,"
          + " the leader it knows of and the last log index it applied. Exits 4 if an OM cannot be reached.")
  static final class Roles implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      PrintWriter out = spec.commandLine().getOut();
      Map<HostPort, OmException> unreachable = new LinkedHashMap<>();
      try (TroposClient client = TroposClient.create(config.loadForClient())) {
        Map<HostPort, GetOmRoleResponse> roles = client.omRoles(unreachable);
        out.printf(ROW, "NODE", "ADDRESS", "ROLE", "TERM", "LEADER", "APPLIED");
        for (HostPort address : client.omAddresses()) {
          GetOmRoleResponse role = roles.get(address);
          if (role == null) {
            out.printf(ROW, "?", address, "UNREACHABLE", "", "", unreachable.get(address).getMessage());
          } else {
            out.printf(ROW, role.getNodeId().isEmpty() ? "-" : role.getNodeId(), address, role.getRole(),
                role.getTerm(), role.getLeaderId(), role.getAppliedIndex());
          }
        }
      }
      out.flush();
      return unreachable.isEmpty() ? ExitCodes.OK : ExitCodes.UNAVAILABLE;
    }
  }

  @Command(name = "transfer", mixinStandardHelpOptions = true,
      description = "Hand the leadership to another OM (administrators only); returns once it leads.")
  static final class Transfer implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "NODE_ID", description = "The OM to lead next (a node id of ozone.om.nodes.<service>).")
    String nodeId;

    @Override
    public Integer call() throws IOException, OmException {
      try (TroposClient client = TroposClient.create(config.loadForClient())) {
        client.transferOmLeadership(nodeId);
      }
      spec.commandLine().getOut().println("OM " + nodeId + " leads the service now");
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    }
  }
}
