package org.tropos.tools.cli;

import picocli.CommandLine.Command;

/** {@code tropos admin datanode}. */
@Command(name = "datanode", mixinStandardHelpOptions = true, description = "Datanodes.",
    subcommands = {DatanodeListCommand.class, DatanodeAdminCommands.Decommission.class,
        DatanodeAdminCommands.Recommission.class, DatanodeAdminCommands.Maintenance.class})
public final class AdminDatanodeCommand {
}
