package org.tropos.tools;

import java.io.PrintWriter;
import java.util.Set;
import org.tropos.tools.bench.BenchCommand;
import org.tropos.tools.cli.AdminCommand;
import org.tropos.tools.cli.DatanodeCommand;
import org.tropos.tools.cli.FailureReport;
import org.tropos.tools.cli.FsCommand;
import org.tropos.tools.cli.LocalCommand;
import org.tropos.tools.cli.OmCommand;
import org.tropos.tools.cli.QuietTransportLogs;
import org.tropos.tools.cli.S3Command;
import org.tropos.tools.cli.S3gCommand;
import org.tropos.tools.cli.ScmCommand;
import org.tropos.tools.cli.VersionCommand;
import org.tropos.tools.cli.sh.ShCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/** The {@code tropos} command: the one entry point that turns outcomes into process exit codes. */
@Command(name = "tropos", mixinStandardHelpOptions = true, versionProvider = VersionCommand.class,
    description = "Tropos, a distributed object store.",
    subcommands = {ScmCommand.class, OmCommand.class, DatanodeCommand.class, S3gCommand.class, LocalCommand.class,
        ShCommand.class, FsCommand.class, S3Command.class, AdminCommand.class, BenchCommand.class,
        VersionCommand.class},
    footerHeading = "%nExit codes:%n",
    footer = {"  0  success", "  1  the operation failed", "  2  invalid command line",
        "  3  invalid configuration (the message names the key)", "  4  service unreachable"})
public final class Tropos {
  private static final String VERBOSE = "--verbose";
  /** Commands that run servers (or, for bench, whole clusters): their logs are the operator's, never quieted. */
  private static final Set<String> SERVER_COMMANDS = Set.of("scm", "om", "datanode", "s3g", "local", "bench");

  /** Declared here and inherited by every subcommand; read from the parse result, where it was given. */
  @Option(names = VERBOSE, scope = ScopeType.INHERIT,
      description = "On failure print the stack trace after the one-line error, and keep the logs of gRPC, Netty"
          + " and Ratis on in client commands.")
  private boolean verbose;

  private Tropos() {
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs a command line and returns its exit code. */
  public static int run(String... args) {
    return run(new CommandLine(Tropos.class), args);
  }

  /** Runs a command line printing to {@code out} and {@code err}, and returns its exit code. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = new CommandLine(Tropos.class);
    cli.setOut(out);
    cli.setErr(err);
    return run(cli, args);
  }

  private static int run(CommandLine cli, String... args) {
    shareVersion(cli, new VersionCommand());
    cli.setExecutionStrategy(Tropos::execute);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      PrintWriter err = commandLine.getErr();
      err.println(FailureReport.line(e));
      if (verbose(parseResult)) {
        FailureReport.printTrace(e, err);
      }
      err.flush();
      return FailureReport.exitCode(e);
    });
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    return cli.execute(args);
  }

  /** Runs the command, a client one with the libraries' logs off unless {@code --verbose}. */
  private static int execute(ParseResult parseResult) {
    ParseResult top = parseResult.subcommand();
    if (top == null || SERVER_COMMANDS.contains(top.commandSpec().name()) || verbose(parseResult)) {
      return new CommandLine.RunLast().execute(parseResult);
    }
    QuietTransportLogs quiet = QuietTransportLogs.start();
    try {
      return new CommandLine.RunLast().execute(parseResult);
    } finally {
      quiet.close();
    }
  }

  /** Whether {@code --verbose} was given on the command or any command above it. */
  private static boolean verbose(ParseResult parseResult) {
    for (ParseResult level = parseResult; level != null; level = level.subcommand()) {
      if (level.hasMatchedOption(VERBOSE)) {
        return true;
      }
    }
    return false;
  }

  /** Every command's {@code --version} prints the same as {@code tropos version}. */
  private static void shareVersion(CommandLine command, VersionCommand version) {
    command.getCommandSpec().versionProvider(version);
    command.getSubcommands().values().forEach(sub -> shareVersion(sub, version));
  }
}
