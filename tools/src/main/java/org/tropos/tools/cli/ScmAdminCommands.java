package org.tropos.tools.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.ScmService;
import org.tropos.common.ratis.GroupRoles;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceRole;
import org.tropos.scm.ratis.ScmRaftServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tropos admin scm roles}: the SCMs of an HA service (ozone.scm.service.ids). */
@Command(name = "scm", mixinStandardHelpOptions = true, description = "The SCMs of the service and their leader.",
    subcommands = {ScmAdminCommands.Roles.class})
public final class ScmAdminCommands {
  private static final String ROW = "%-12s %-22s %-12s %6s  %-12s %s%n";

  @Command(name = "roles", mixinStandardHelpOptions = true,
      description = "Each SCM's node id, Raft address, role (LEADER, FOLLOWER, CANDIDATE), term, the leader it"
          + " knows of and the last log index it applied, as its Raft member answers (only the leader serves"
          + " clients). Exits 4 if an SCM cannot be reached, 2 without an SCM HA service.")
  static final class Roles implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      Configuration conf = config.loadForClient();
      Optional<ScmService> service = ScmService.from(conf);
      if (service.isEmpty()) {
        spec.commandLine().getErr().println("tropos: no SCM HA service is configured (ozone.scm.service.ids):"
            + " a single SCM has no roles");
        return ExitCodes.USAGE;
      }
      List<GroupRoles.MemberRole> roles = GroupRoles.of(ScmRaftServer.KIND, service.get().id(),
          service.get().raftPeers(), SecuritySettings.userTransport(conf), ServiceRole.SCM);
      PrintWriter out = spec.commandLine().getOut();
      out.printf(ROW, "NODE", "RAFT ADDRESS", "ROLE", "TERM", "LEADER", "APPLIED");
      boolean unreachable = false;
      for (GroupRoles.MemberRole role : roles) {
        unreachable |= !role.error().isEmpty();
        out.printf(ROW, role.node(), role.address(), role.role(), role.error().isEmpty() ? role.term() : "",
            role.leader(), role.error().isEmpty() ? role.applied() : role.error());
      }
      out.flush();
      return unreachable ? ExitCodes.UNAVAILABLE : ExitCodes.OK;
    }
  }
}
