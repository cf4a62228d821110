package org.tropos.tools.cli;

import picocli.CommandLine.Command;

/** {@code tropos admin datanode}. */
@Command(name = "datanode", mixinStandardHelpOptions = true, description = "Datanodes.",
    subcommands = {DatanodeListCommand.class})
public final class AdminDatanodeCommand {
}
