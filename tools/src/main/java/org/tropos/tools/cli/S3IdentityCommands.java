package org.tropos.tools.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tropos.client.S3Identities;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Group;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.S3User;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tropos s3 user|group|policy ...}: S3 users, groups and the identity policies attached to them, kept by the
 * OM, as MinIO's {@code mc admin user|group|policy}. Changes are the OM's administrators'.
 */
final class S3IdentityCommands {
  private S3IdentityCommands() {
  }

  /** One call of the OM's S3 identity service, its output printed. */
  abstract static class IdentityCall implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    abstract void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException;

    @Override
    public Integer call() throws IOException, OmException {
      try (TroposClient client = TroposClient.create(config.loadForClient())) {
        PrintWriter out = spec.commandLine().getOut();
        run(client, client.s3Identities(), out);
        out.flush();
        return ExitCodes.OK;
      }
    }
  }

  @Command(name = "user", mixinStandardHelpOptions = true, description = "S3 users: their credentials, whether they"
      + " are enabled, their groups and policies.", subcommands = {UserAdd.class, UserRemove.class, UserEnable.class,
          UserDisable.class, UserList.class, UserInfo.class})
  static final class User {
  }

  @Command(name = "add", mixinStandardHelpOptions = true,
      description = "Give a user S3 credentials and print them: the secret given, else the one it has, else a new"
          + " random one.")
  static final class UserAdd extends IdentityCall {
    @Parameters(paramLabel = "USER", description = "The user's name, its S3 access key.")
    String user;

    @Option(names = {"-s", "--secret"}, description = "The secret (default: 32 random bytes in hex).")
    String secret;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      S3Command.SecretCall.print(secret == null ? client.getS3Secret(user, true) : client.setS3Secret(user, secret),
          out);
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true,
      description = "Remove a user: its S3 secret, its attached policies and its group memberships.")
  static final class UserRemove extends IdentityCall {
    @Parameters(paramLabel = "USER")
    String user;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      identities.remove(user);
      out.println("S3 user " + user + " removed");
    }
  }

  @Command(name = "enable", mixinStandardHelpOptions = true, description = "Let a user's S3 credentials sign again.")
  static final class UserEnable extends IdentityCall {
    @Parameters(paramLabel = "USER")
    String user;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      identities.setEnabled(user, true);
      out.println("S3 user " + user + " enabled");
    }
  }

  @Command(name = "disable", mixinStandardHelpOptions = true, description = "Refuse the requests a user's S3"
      + " credentials sign (within seconds at the gateways), keeping its secret, groups and policies.")
  static final class UserDisable extends IdentityCall {
    @Parameters(paramLabel = "USER")
    String user;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      identities.setEnabled(user, false);
      out.println("S3 user " + user + " disabled");
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Every S3 user: status, policies, groups.")
  static final class UserList extends IdentityCall {
    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      out.printf("%-9s %-24s %-30s %s%n", "STATUS", "USER", "POLICIES", "GROUPS");
      for (S3User user : identities.users("")) {
        out.printf("%-9s %-24s %-30s %s%n", status(user), user.getName(), String.join(",",
            user.getEffectivePoliciesList()), String.join(",", user.getGroupsList()));
      }
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "One S3 user (yourself, or anyone for"
      + " administrators).")
  static final class UserInfo extends IdentityCall {
    @Parameters(paramLabel = "USER")
    String user;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      for (S3User info : identities.users(user)) {
        out.println("User: " + info.getName());
        out.println("Status: " + status(info) + (info.getHasSecret() ? "" : " (no S3 secret)"));
        out.println("Policies: " + String.join(",", info.getPoliciesList()));
        out.println("Groups: " + String.join(",", info.getGroupsList()));
        out.println("Effective policies: " + String.join(",", info.getEffectivePoliciesList()));
      }
    }
  }

  private static String status(S3User user) {
    return user.getDisabled() ? "disabled" : "enabled";
  }

  @Command(name = "group", mixinStandardHelpOptions = true, description = "S3 groups: their members and policies.",
      subcommands = {GroupAdd.class, GroupRemove.class, GroupList.class, GroupInfo.class})
  static final class Group {
  }

  @Command(name = "add", mixinStandardHelpOptions = true, description = "Add users to a group, creating it.")
  static final class GroupAdd extends IdentityCall {
    @Parameters(index = "0", paramLabel = "GROUP")
    String group;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "USER")
    List<String> members;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      print(identities.changeGroup(ChangeS3GroupRequest.newBuilder().setName(group).addAllAddMembers(members)
          .build()), out);
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true,
      description = "Remove users from a group; without users, delete the group (it must have no members).")
  static final class GroupRemove extends IdentityCall {
    @Parameters(index = "0", paramLabel = "GROUP")
    String group;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "USER")
    List<String> members = List.of();

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      S3Group changed = identities.changeGroup(ChangeS3GroupRequest.newBuilder().setName(group)
          .addAllRemoveMembers(members).setDelete(members.isEmpty()).build());
      if (members.isEmpty()) {
        out.println("S3 group " + group + " deleted");
      } else {
        print(changed, out);
      }
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Every S3 group.")
  static final class GroupList extends IdentityCall {
    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      for (S3Group group : identities.groups()) {
        out.println(group.getName());
      }
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "One S3 group's members and policies.")
  static final class GroupInfo extends IdentityCall {
    @Parameters(paramLabel = "GROUP")
    String group;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      S3Group found = identities.groups().stream().filter(g -> g.getName().equals(group)).findFirst()
          .orElseThrow(() -> new OmException(OmResult.S3_IDENTITY_NOT_FOUND,
              "no S3 group named " + group));
      print(found, out);
    }
  }

  private static void print(S3Group group, PrintWriter out) {
    out.println("Group: " + group.getName());
    out.println("Members: " + String.join(",", group.getMembersList()));
    out.println("Policies: " + String.join(",", group.getPoliciesList()));
  }

  @Command(name = "policy", mixinStandardHelpOptions = true, description = "S3 identity policies (IAM policy"
      + " documents) and whom they are attached to.", subcommands = {PolicyCreate.class, PolicyRemove.class,
          PolicyList.class, PolicyInfo.class, PolicyAttach.class, PolicyDetach.class})
  static final class Policy {
  }

  @Command(name = "create", mixinStandardHelpOptions = true, description = "Create or replace a policy from a JSON"
      + " file (no Principal: it speaks of whom it is attached to).")
  static final class PolicyCreate extends IdentityCall {
    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Parameters(index = "1", paramLabel = "FILE", description = "The policy document (JSON).")
    Path file;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      String document;
      try {
        document = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new IllegalArgumentException("cannot read the policy " + file + ": " + e.getMessage(), e);
      }
      identities.putPolicy(name, document);
      out.println("S3 policy " + name + " created");
    }
  }

  @Command(name = "remove", mixinStandardHelpOptions = true, description = "Delete a policy nothing is attached to.")
  static final class PolicyRemove extends IdentityCall {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      identities.deletePolicy(name);
      out.println("S3 policy " + name + " removed");
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "Every policy, the built-in ones first.")
  static final class PolicyList extends IdentityCall {
    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      for (S3Policy policy : identities.policies()) {
        out.println(policy.getName() + (policy.getBuiltIn() ? " (built in)" : ""));
      }
    }
  }

  @Command(name = "info", mixinStandardHelpOptions = true, description = "Print a policy's document.")
  static final class PolicyInfo extends IdentityCall {
    @Parameters(paramLabel = "NAME")
    String name;

    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      S3Policy found = identities.policies().stream().filter(p -> p.getName().equals(name)).findFirst()
          .orElseThrow(() -> new OmException(OmResult.S3_IDENTITY_NOT_FOUND,
              "no S3 policy named " + name));
      out.println(found.getDocument());
    }
  }

  /** Whom policies are attached to or detached from: a user or a group. */
  static final class Target {
    @Option(names = "--user", required = true, description = "A user.")
    String user;

    @Option(names = "--group", required = true, description = "A group.")
    String group;
  }

  /** Attaching or detaching policies. */
  abstract static class Attachment extends IdentityCall {
    @Parameters(arity = "1..*", paramLabel = "POLICY")
    List<String> policies;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    AttachS3PoliciesRequest request(boolean detach) {
      AttachS3PoliciesRequest.Builder request = AttachS3PoliciesRequest.newBuilder().addAllPolicies(policies)
          .setDetach(detach);
      return (target.user != null ? request.setUser(target.user) : request.setGroup(target.group)).build();
    }

    String whom() {
      return target.user != null ? "user " + target.user : "group " + target.group;
    }
  }

  @Command(name = "attach", mixinStandardHelpOptions = true, description = "Attach policies to a user or a group.")
  static final class PolicyAttach extends Attachment {
    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      identities.attach(request(false));
      out.println("Attached " + String.join(",", policies) + " to " + whom());
    }
  }

  @Command(name = "detach", mixinStandardHelpOptions = true, description = "Detach policies from a user or group.")
  static final class PolicyDetach extends Attachment {
    @Override
    void run(TroposClient client, S3Identities identities, PrintWriter out) throws OmException {
      identities.attach(request(true));
      out.println("Detached " + String.join(",", policies) + " from " + whom());
    }
  }
}
