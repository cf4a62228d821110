package org.tropos.tools.cli.sh;

import picocli.CommandLine.Command;

/** {@code tropos sh prefix getacl|setacl|addacl|removeacl /volume/bucket/prefix/}, as {@code ozone sh prefix}. */
@Command(name = "prefix", mixinStandardHelpOptions = true, description = "ACLs of the keys under a prefix"
    + " (/volume/bucket/prefix/, ending in '/').",
    subcommands = {AclCommands.GetAcl.class, AclCommands.SetAcl.class, AclCommands.AddAcl.class,
        AclCommands.RemoveAcl.class})
public final class PrefixCommands {
  private PrefixCommands() {
  }
}
