package org.tropos.tools.cli.sh;

import java.io.PrintWriter;
import java.util.List;
import org.tropos.client.TroposClient;
import org.tropos.proto.om.AclChange;
import org.tropos.proto.om.AclObject;
import org.tropos.proto.om.AclObjectType;
import org.tropos.proto.om.GetAclResponse;
import org.tropos.proto.om.NativeAcl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tropos sh volume|bucket|key|prefix getacl|setacl|addacl|removeacl PATH}, as {@code ozone sh}: the native
 * ACL of what the path names, which the parent command ({@code volume}, {@code bucket}, {@code key} or
 * {@code prefix}) says.
 */
final class AclCommands {
  private AclCommands() {
  }

  abstract static class OnAclObject extends ShCall {
    @Parameters(paramLabel = "PATH", description = "/volume, /volume/bucket, /volume/bucket/key or"
        + " /volume/bucket/prefix/ (as the command is volume, bucket, key or prefix), optionally o3://om-host:port/"
        + " in front")
    String target;

    @Override
    OzonePath path() {
      OzonePath path = OzonePath.parse(target);
      return switch (type()) {
        case OBJECT_VOLUME -> path.requireVolume();
        case OBJECT_BUCKET -> path.requireBucket();
        default -> path.requireKey();
      };
    }

    AclObjectType type() {
      return switch (spec.parent().name()) {
        case "volume" -> AclObjectType.OBJECT_VOLUME;
        case "bucket" -> AclObjectType.OBJECT_BUCKET;
        case "prefix" -> AclObjectType.OBJECT_PREFIX;
        default -> AclObjectType.OBJECT_KEY;
      };
    }

    AclObject object() {
      OzonePath path = path();
      AclObject.Builder object = AclObject.newBuilder().setType(type()).setVolume(path.volume());
      if (type() != AclObjectType.OBJECT_VOLUME) {
        object.setBucket(path.bucket());
      }
      if (type() == AclObjectType.OBJECT_KEY || type() == AclObjectType.OBJECT_PREFIX) {
        object.setKey(path.key());
      }
      return object.build();
    }

    static void print(PrintWriter out, List<NativeAcl> acls) {
      for (NativeAcl acl : acls) {
        out.println(AclStrings.format(acl));
      }
    }
  }

  @Command(name = "getacl", mixinStandardHelpOptions = true, description = "Show the owner and native ACL.")
  static final class GetAcl extends OnAclObject {
    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      GetAclResponse acl = client.getAcl(object());
      out.println("owner: " + acl.getOwner());
      print(out, acl.getAclsList());
    }
  }

  /** A change of the native ACL by entries given with {@code --acl}. */
  abstract static class Change extends OnAclObject {
    @Option(names = {"-a", "--acl"}, required = true, description = "Entries: type:name:rights[scope],... e.g."
        + " user:alice:rw,group:hadoop:rl[DEFAULT]; rights r w c l d x y a n (READ WRITE CREATE LIST DELETE"
        + " READ_ACL WRITE_ACL ALL NONE)")
    String acl;

    abstract AclChange change();

    @Override
    void run(TroposClient client, PrintWriter out) throws Exception {
      print(out, client.changeAcl(object(), change(), AclStrings.parse(acl)));
    }
  }

  @Command(name = "setacl", mixinStandardHelpOptions = true, description = "Replace the native ACL.")
  static final class SetAcl extends Change {
    @Override
    AclChange change() {
      return AclChange.ACL_CHANGE_SET;
    }
  }

  @Command(name = "addacl", mixinStandardHelpOptions = true, description = "Add rights to the native ACL.")
  static final class AddAcl extends Change {
    @Override
    AclChange change() {
      return AclChange.ACL_CHANGE_ADD;
    }
  }

  @Command(name = "removeacl", mixinStandardHelpOptions = true, description = "Remove rights from the native ACL.")
  static final class RemoveAcl extends Change {
    @Override
    AclChange change() {
      return AclChange.ACL_CHANGE_REMOVE;
    }
  }
}
