package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.util.List;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.scm.DatanodeAdminResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tropos admin datanode decommission|recommission|maintenance HOST...}: take datanodes out of service for
 * good or for a while, or bring them back. Each host is reported on its own; the exit code is 1 if any failed.
 */
final class DatanodeAdminCommands {
  private static final String FORMAT = "%-24s  %-36s  %s%n";

  private DatanodeAdminCommands() {
  }

  /** One verb on the hosts named. */
  abstract static class Verb extends ScmAdminCall {
    @Parameters(paramLabel = "HOST", arity = "1..*",
        description = "Host names, IP addresses (optionally host:port) or datanode uuids.")
    List<String> hosts;

    abstract List<DatanodeAdminResult> apply(ScmAdminClient scm) throws ScmException;

    @Override
    int run(ScmAdminClient scm, PrintWriter out) throws ScmException {
      int code = ExitCodes.OK;
      out.printf(FORMAT, "HOST", "ID", "RESULT");
      for (DatanodeAdminResult r : apply(scm)) {
        String id = r.hasUuid() ? Uuids.fromProto(r.getUuid()).toString() : "-";
        out.printf(FORMAT, r.getHost(), id, r.getError().isEmpty() ? r.getOperationalState() : "error: "
            + r.getError());
        code = r.getError().isEmpty() ? code : ExitCodes.FAILED;
      }
      return code;
    }
  }

  @Command(name = "decommission", mixinStandardHelpOptions = true,
      description = "Take datanodes out of service for good: their pipelines close, their containers are copied"
          + " elsewhere (reads keep working), then they are DECOMMISSIONED and can be stopped.")
  static final class Decommission extends Verb {
    @Override
    List<DatanodeAdminResult> apply(ScmAdminClient scm) throws ScmException {
      return scm.decommission(hosts);
    }
  }

  @Command(name = "recommission", mixinStandardHelpOptions = true,
      description = "Return datanodes to service after decommission or maintenance.")
  static final class Recommission extends Verb {
    @Override
    List<DatanodeAdminResult> apply(ScmAdminClient scm) throws ScmException {
      return scm.recommission(hosts);
    }
  }

  @Command(name = "maintenance", mixinStandardHelpOptions = true,
      description = "Take datanodes out of service for a while: their pipelines close, each container keeps enough"
          + " replicas on other nodes (hdds.scm.replication.maintenance.replica.minimum), and their own replicas"
          + " still count while they are down. IN_MAINTENANCE once that holds.")
  static final class Maintenance extends Verb {
    @Option(names = "--end-after", paramLabel = "HOURS", defaultValue = "0",
        description = "Return to service by themselves after this many hours (default 0: when recommissioned).")
    int endAfterHours;

    @Override
    List<DatanodeAdminResult> apply(ScmAdminClient scm) throws ScmException {
      return scm.startMaintenance(hosts, endAfterHours);
    }
  }
}
