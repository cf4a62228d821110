package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.proto.om.S3Secret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos s3 getsecret|setsecret|revokesecret}: S3 credentials, kept by the OM; {@code tropos s3
 * user|group|policy}: S3 users, groups and identity policies ({@link S3IdentityCommands}).
 */
@Command(name = "s3", mixinStandardHelpOptions = true, description = "S3 credentials, users, groups and policies"
    + " (kept by the OM).", subcommands = {S3Command.GetSecret.class, S3Command.SetSecret.class,
        S3Command.RevokeSecret.class, S3IdentityCommands.User.class, S3IdentityCommands.Group.class,
        S3IdentityCommands.Policy.class})
public final class S3Command {
  private S3Command() {
  }

  /** One credentials command: for the current user, or with {@code --user} for another (administrators). */
  abstract static class SecretCall implements Callable<Integer> {
    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Option(names = {"-u", "--user"}, description = "Act for this user (the OM's administrators only; default:"
        + " you).")
    String user;

    abstract void run(TroposClient client, String accessId, PrintWriter out) throws Exception;

    @Override
    public Integer call() throws Exception {
      Configuration conf = config.loadForClient();
      // The OM decides whether this user may act for another: only its own administrators may.
      try (TroposClient client = TroposClient.create(conf)) {
        String accessId = user == null ? client.user() : user;
        PrintWriter out = spec.commandLine().getOut();
        run(client, accessId, out);
        out.flush();
        return ExitCodes.OK;
      }
    }

    static void print(S3Secret secret, PrintWriter out) {
      out.println("awsAccessKey=" + secret.getAccessId());
      out.println("awsSecret=" + secret.getSecret());
    }
  }

  @Command(name = "getsecret", mixinStandardHelpOptions = true,
      description = "Print the S3 access key and secret (created on first use).")
  static final class GetSecret extends SecretCall {
    @Override
    void run(TroposClient client, String accessId, PrintWriter out) throws Exception {
      print(client.getS3Secret(accessId, true), out);
    }
  }

  @Command(name = "setsecret", mixinStandardHelpOptions = true, description = "Set the S3 secret.")
  static final class SetSecret extends SecretCall {
    @Option(names = {"-s", "--secret"}, required = true, description = "The new secret.")
    String secret;

    @Override
    void run(TroposClient client, String accessId, PrintWriter out) throws Exception {
      print(client.setS3Secret(accessId, secret), out);
    }
  }

  @Command(name = "revokesecret", mixinStandardHelpOptions = true,
      description = "Revoke the S3 secret: requests signed with it are refused from now on.")
  static final class RevokeSecret extends SecretCall {
    @Override
    void run(TroposClient client, String accessId, PrintWriter out) throws Exception {
      client.revokeS3Secret(accessId);
      out.println("S3 secret of " + accessId + " revoked");
    }
  }
}
