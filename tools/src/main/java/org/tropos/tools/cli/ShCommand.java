package org.tropos.tools.cli;

import org.tropos.tools.cli.sh.BucketCommands;
import org.tropos.tools.cli.sh.KeyCommands;
import org.tropos.tools.cli.sh.PrefixCommands;
import org.tropos.tools.cli.sh.VolumeCommands;
import picocli.CommandLine.Command;

/** {@code tropos sh}: volumes, buckets, keys and prefix ACLs, like {@code ozone sh}. */
@Command(name = "sh", mixinStandardHelpOptions = true, description = "Volumes, buckets, keys and prefix ACLs (like"
    + " 'ozone sh').",
    subcommands = {VolumeCommands.class, BucketCommands.class, KeyCommands.class, PrefixCommands.class})
public final class ShCommand {
}
