package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.util.UUID;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.RaftRole;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tropos admin pipeline list|create|close|activate|deactivate}. */
@Command(name = "pipeline", mixinStandardHelpOptions = true, description = "Raft pipelines.",
    subcommands = {PipelineCommands.ListPipelines.class, PipelineCommands.Create.class, PipelineCommands.Close.class,
        PipelineCommands.Activate.class, PipelineCommands.Deactivate.class})
public final class PipelineCommands {
  private static final String HEADER = "%-36s  %-11s  %-9s  %s%n";
  private static final String MEMBER = "    %-16s %-10s %-9s %-9s %s%n";

  /** Runs one admin call against SCM and prints the pipelines it returns. */
  abstract static class PipelineCall extends ScmAdminCall {
    abstract void call(ScmAdminClient scm, PrintWriter out) throws ScmException;

    @Override
    final int run(ScmAdminClient scm, PrintWriter out) throws ScmException {
      call(scm, out);
      return ExitCodes.OK;
    }
  }

  /** A call on one pipeline, named by its id. */
  abstract static class OnePipeline extends PipelineCall {
    @Parameters(paramLabel = "PIPELINE_ID", description = "The pipeline's id (from 'pipeline list').")
    UUID id;
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List pipelines: id, type, state, leader; per member: host, rack, node state, role, RaftLog dir.")
  static final class ListPipelines extends PipelineCall {
    @Option(names = "--state", paramLabel = "STATE", description = "Only ALLOCATED, OPEN or DORMANT pipelines.")
    PipelineState state;

    @Override
    void call(ScmAdminClient scm, PrintWriter out) throws ScmException {
      out.printf(HEADER, "ID", "TYPE", "STATE", "LEADER");
      for (PipelineInfo p : scm.listPipelines(state == null ? PipelineState.PIPELINE_STATE_UNSPECIFIED : state)) {
        print(p, out);
      }
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Place and create a pipeline now.")
  static final class Create extends PipelineCall {
    @Option(names = "--factor", defaultValue = "THREE", description = "ONE or THREE (default THREE).")
    ReplicationFactor factor;

    @Override
    void call(ScmAdminClient scm, PrintWriter out) throws ScmException {
      print(scm.createPipeline(factor), out);
    }
  }

  @Command(name = "close", mixinStandardHelpOptions = true, description = "Close a pipeline: members leave it.")
  static final class Close extends OnePipeline {
    @Override
    void call(ScmAdminClient scm, PrintWriter out) throws ScmException {
      print(scm.closePipeline(id), out);
    }
  }

  @Command(name = "activate", mixinStandardHelpOptions = true, description = "DORMANT -> OPEN.")
  static final class Activate extends OnePipeline {
    @Override
    void call(ScmAdminClient scm, PrintWriter out) throws ScmException {
      print(scm.activatePipeline(id), out);
    }
  }

  @Command(name = "deactivate", mixinStandardHelpOptions = true,
      description = "OPEN -> DORMANT: the pipeline stays formed but takes no new containers.")
  static final class Deactivate extends OnePipeline {
    @Override
    void call(ScmAdminClient scm, PrintWriter out) throws ScmException {
      print(scm.deactivatePipeline(id), out);
    }
  }

  static void print(PipelineInfo p, PrintWriter out) {
    UUID leader = p.hasLeader() ? Uuids.fromProto(p.getLeader()) : null;
    String leaderHost = "-";
    for (PipelineMember m : p.getMembersList()) {
      if (Uuids.fromProto(m.getDatanode().getUuid()).equals(leader)) {
        leaderHost = m.getDatanode().getHostName();
      }
    }
    out.printf(HEADER, Uuids.fromProto(p.getId().getId()), "RATIS/" + p.getFactor(), p.getState(), leaderHost);
    for (PipelineMember m : p.getMembersList()) {
      out.printf(MEMBER, m.getDatanode().getHostName(), m.getDatanode().getNetworkLocation(), m.getNodeState(),
          m.getRole() == RaftRole.RAFT_ROLE_UNSPECIFIED ? "-" : m.getRole(),
          m.getLogDir().isEmpty() ? "-" : m.getLogDir());
    }
  }
}
