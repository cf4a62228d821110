package org.tropos.tools.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.Durations;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.SystemClock;
import org.tropos.scm.ScmConfig;
import org.tropos.scm.security.ScmSecurityFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tropos admin cert}: the cluster's certificates. */
@Command(name = "cert", mixinStandardHelpOptions = true, description = "The cluster's certificates.",
    subcommands = {CertCommands.Token.class, CertCommands.Issue.class})
public final class CertCommands {
  /** How long the token {@code cert issue} mints for itself may be used. */
  private static final Duration ISSUE_TOKEN_VALIDITY = Duration.ofMinutes(5);

  /** {@code --security-dir}: SCM's security directory, whose files mint tokens. */
  static final class SecurityDirOption {
    @Option(names = "--security-dir", description = "SCM's security directory (default: scm-security beside SCM's"
        + " database, as this host's configuration says)")
    private Path securityDir;

    /** The files of the directory named, else of the one this host's SCM configuration names; null if absent. */
    ScmSecurityFiles files(ConfigOptions config, CommandSpec spec) throws IOException {
      Path dir = securityDir != null ? securityDir : ScmConfig.from(config.loadForDaemon()).security().dir();
      try {
        return ScmSecurityFiles.read(dir);
      } catch (NoSuchFileException e) {
        spec.commandLine().getErr().println("no " + e.getFile() + ": run this where SCM's security directory is"
            + " (SCM writes it at its first start), or name it with --security-dir");
        return null;
      }
    }
  }

  /**
   * {@code tropos admin cert token}: a one-time bootstrap token with which a daemon gets its first certificate,
   * minted on the SCM's host from the files SCM writes.
   */
  @Command(name = "token", mixinStandardHelpOptions = true, description = "Mint a one-time bootstrap token for"
      + " a daemon of a role (run where SCM's security directory can be read).")
  static final class Token implements Callable<Integer> {
    @Mixin
    private ConfigOptions config;

    @Spec
    private CommandSpec spec;

    @Option(names = "--role", required = true, description = "scm, om, datanode or s3g")
    private String role;

    @Option(names = "--valid", defaultValue = "24h", description = "How long the token may be used (default"
        + " ${DEFAULT-VALUE}), e.g. 30m, 7d")
    private String valid;

    @Mixin
    private SecurityDirOption securityDir;

    @Override
    public Integer call() throws Exception {
      ServiceRole daemon = ServiceRole.ofSubjectName(role.toLowerCase(Locale.ROOT))
          .filter(r -> r != ServiceRole.USER).orElse(null);
      Duration validity;
      try {
        validity = Durations.parse(valid, ChronoUnit.HOURS);
      } catch (IllegalArgumentException e) {
        validity = null;
      }
      if (daemon == null || validity == null || validity.isNegative() || validity.isZero()) {
        spec.commandLine().getErr().println("--role must be scm, om, datanode or s3g (a user's certificate comes"
            + " from `tropos admin cert issue`), and --valid a positive duration such as 24h");
        return ExitCodes.USAGE;
      }
      ScmSecurityFiles files = securityDir.files(config, spec);
      if (files == null) {
        return ExitCodes.FAILED;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(files.mint(daemon, SystemClock.INSTANCE.wallTime().plus(validity)));
      out.flush();
      return ExitCodes.OK;
    }
  }

  /**
   * {@code tropos admin cert issue}: a certificate naming a user, with which the user's clients (the CLI, the
   * Java client, the Hadoop FileSystem) authenticate as that user ({@code tropos.security.identity.file}). The key
   * is made here and never leaves this host; SCM signs the request for a token minted here, so only who can read
   * SCM's security directory issues them.
   */
  @Command(name = "issue", mixinStandardHelpOptions = true, description = "Issue a user's certificate and key, in"
      + " one PEM file readable by its owner alone (run where SCM's security directory can be read).")
  static final class Issue implements Callable<Integer> {
    @Mixin
    private ConfigOptions config;

    @Spec
    private CommandSpec spec;

    @Option(names = "--user", required = true, description = "The user the certificate names")
    private String user;

    @Option(names = "--out", required = true, description = "The PEM file to write (key, certificate, CA)")
    private Path out;

    @Mixin
    private SecurityDirOption securityDir;

    @Override
    public Integer call() throws Exception {
      if (Files.exists(out)) {
        spec.commandLine().getErr().println(out + " exists: choose another --out, or move it away");
        return ExitCodes.FAILED;
      }
      ScmSecurityFiles files = securityDir.files(config, spec);
      if (files == null) {
        return ExitCodes.FAILED;
      }
      Configuration conf = config.loadForClient();
      String token = files.mint(ServiceRole.USER, SystemClock.INSTANCE.wallTime().plus(ISSUE_TOKEN_VALIDITY));
      Path made = Files.createTempDirectory(out.toAbsolutePath().getParent(), ".tropos-issue-");
      try (ScmChannel scm = new ScmChannel(ScmAddresses.clientServices(conf), TransportSecurity.pinning(
          BootstrapTokens.pinnedCa(token).orElseThrow()))) {
        ServiceCertificates issued = ServiceCertificates.join(made, ServiceRole.USER, user, X509Settings.from(conf),
            new ScmCertificateClient(scm, token));
        Files.move(issued.file(), out, StandardCopyOption.ATOMIC_MOVE);
        spec.commandLine().getOut().println("wrote " + out + ": a certificate of user " + user + " valid until "
            + issued.identity().certificate().getNotAfter().toInstant() + " (set tropos.security.identity.file"
            + " to it)");
      } finally {
        try (var left = Files.list(made)) {
          for (Path file : left.toList()) {
            Files.delete(file);
          }
        }
        Files.delete(made);
      }
      return ExitCodes.OK;
    }
  }
}
