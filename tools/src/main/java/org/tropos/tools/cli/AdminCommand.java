package org.tropos.tools.cli;

import picocli.CommandLine.Command;

/** {@code tropos admin}: cluster administration. */
@Command(name = "admin", mixinStandardHelpOptions = true, description = "Administer the cluster.",
    subcommands = {AdminDatanodeCommand.class, PipelineCommands.class, ContainerCommands.class, BlockCommands.class,
        PrintTopologyCommand.class, OmAdminCommands.class, ScmAdminCommands.class, CertCommands.class})
public final class AdminCommand {
}
