package org.tropos.tools.cli.sh;

import picocli.CommandLine.Command;

/** {@code tropos sh}: volumes, buckets, keys and prefix ACLs, like {@code ozone sh}. */
@Command(name = "sh", mixinStandardHelpOptions = true, description = "Volumes, buckets, keys and prefix ACLs (like"
    + " 'ozone sh').",
    subcommands = {VolumeCommands.class, BucketCommands.class, KeyCommands.class, PrefixCommands.class})
public final class ShCommand {
}
