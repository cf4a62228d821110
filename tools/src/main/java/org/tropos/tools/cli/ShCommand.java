package org.tropos.tools.cli;

import org.tropos.tools.cli.sh.BucketCommands;
import org.tropos.tools.cli.sh.KeyCommands;
import org.tropos.tools.cli.sh.VolumeCommands;
import picocli.CommandLine.Command;

/** {@code tropos sh}: volumes, buckets and keys, like {@code ozone sh}. */
@Command(name = "sh", mixinStandardHelpOptions = true, description = "Volumes, buckets and keys (like 'ozone sh').",
    subcommands = {VolumeCommands.class, BucketCommands.class, KeyCommands.class})
public final class ShCommand {
}
