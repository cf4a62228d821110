package org.tropos.tools.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tropos.common.conf.Durations;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.util.SystemClock;
import org.tropos.scm.ScmConfig;
import org.tropos.scm.security.ScmCertificateAuthority;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tropos admin cert}: the cluster's certificates. */
@Command(name = "cert", mixinStandardHelpOptions = true, description = "The cluster's certificates.",
    subcommands = {CertCommands.Token.class})
public final class CertCommands {
  /**
   * {@code tropos admin cert token}: a one-time bootstrap token with which a daemon gets its first certificate,
   * minted on the SCM's host from the files SCM writes (reading the secret is what makes one an administrator).
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

    @Option(names = "--security-dir", description = "SCM's security directory (default: scm-security beside SCM's"
        + " database, as this host's configuration says)")
    private Path securityDir;

    @Override
    public Integer call() throws Exception {
      ServiceRole daemon = ServiceRole.ofSubjectName(role.toLowerCase(Locale.ROOT)).orElse(null);
      Duration validity;
      try {
        validity = Durations.parse(valid, ChronoUnit.HOURS);
      } catch (IllegalArgumentException e) {
        validity = null;
      }
      if (daemon == null || validity == null || validity.isNegative() || validity.isZero()) {
        spec.commandLine().getErr().println("--role must be scm, om, datanode or s3g, and --valid a positive"
            + " duration such as 24h");
        return ExitCodes.USAGE;
      }
      Path dir = securityDir != null ? securityDir : ScmConfig.from(config.loadForDaemon()).security().dir();
      byte[] secret;
      X509Certificate ca;
      try {
        secret = HexFormat.of().parseHex(Files.readString(dir.resolve(ScmCertificateAuthority.SECRET_FILE)).strip());
        ca = PemFiles.certificate(Files.readString(dir.resolve(ScmCertificateAuthority.CA_FILE)));
      } catch (NoSuchFileException e) {
        spec.commandLine().getErr().println("no " + e.getFile() + ": run this where SCM's security directory is"
            + " (SCM writes it at its first start), or name it with --security-dir");
        return ExitCodes.FAILED;
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(new BootstrapTokens(secret).mint(daemon, SystemClock.INSTANCE.wallTime().plus(validity), ca));
      out.flush();
      return ExitCodes.OK;
    }
  }
}
