package org.tropos.tools.cli.sh;

import java.io.PrintWriter;
import org.tropos.common.rpc.Callers;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.DataSize;
import org.tropos.proto.om.VolumeInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tropos sh volume create|info|list|delete}. */
@Command(name = "volume", mixinStandardHelpOptions = true, description = "Volumes.",
    subcommands = {VolumeCommands.Create.class, VolumeCommands.Info.class, VolumeCommands.ListVolumes.class,
        VolumeCommands.Delete.class, AclCommands.GetAcl.class,
        AclCommands.SetAcl.class, AclCommands.AddAcl.class, AclCommands.RemoveAcl.class})
public final class VolumeCommands {
  abstract static class OnVolume extends ShCall {
    @Parameters(paramLabel = "VOLUME", description = "/volume or o3://om-host:port/volume")
    String volume;

    @Override
    OzonePath path() {
      return OzonePath.parse(volume).requireVolume();
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a volume.")
  static final class Create extends OnVolume {
    @Option(names = {"-u", "--user"}, description = "Owner (default: you).")
    String owner = Callers.localUser();

    @Option(names = "--quota", description = "Most bytes its buckets may hold, e.g. 10GB (default: none).")
    String quota;

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      VolumeInfo created = client.createVolume(VolumeInfo.newBuilder().setName(path().volume()).setOwner(owner)
          .setQuotaBytes(quota == null ? 0 : DataSize.parse(quota).bytes()).build());
      out.println(Json.volume(created));
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "Show a volume.")
  static final class Info extends OnVolume {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      out.println(Json.volume(client.getVolume(path().volume())));
    }
  }

  @Command(name = "list", aliases = "ls", mixinStandardHelpOptions = true, description = "List volumes.")
  static final class ListVolumes extends ShCall {
    @Parameters(paramLabel = "OM", defaultValue = "/", description = "/ or o3://om-host:port/ (default /).")
    String root;

    @Option(names = {"-p", "--prefix"}, defaultValue = "", description = "Only names starting with this.")
    String prefix;

    @Override
    OzonePath path() {
      return OzonePath.parse(root);
    }

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      for (VolumeInfo v : client.listVolumes(prefix)) {
        out.println(Json.volume(v));
      }
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete an empty volume.")
  static final class Delete extends OnVolume {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      client.deleteVolume(path().volume());
      out.println("Volume " + path().volume() + " is deleted");
    }
  }
}
