package org.tropos.tools;

import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.io.PrintWriter;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.ScmResult;
import org.tropos.tools.bench.BenchCommand;
import org.tropos.tools.cli.AdminCommand;
import org.tropos.tools.cli.DatanodeCommand;
import org.tropos.tools.cli.ExitCodes;
import org.tropos.tools.cli.FsCommand;
import org.tropos.tools.cli.LocalCommand;
import org.tropos.tools.cli.OmCommand;
import org.tropos.tools.cli.S3Command;
import org.tropos.tools.cli.S3gCommand;
import org.tropos.tools.cli.ScmCommand;
import org.tropos.tools.cli.ShCommand;
import org.tropos.tools.cli.VersionCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

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
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("tropos: " + message(e));
      commandLine.getErr().flush();
      return exitCode(e);
    });
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    return cli.execute(args);
  }

  /** Every command's {@code --version} prints the same as {@code tropos version}. */
  private static void shareVersion(CommandLine command, VersionCommand version) {
    command.getCommandSpec().versionProvider(version);
    command.getSubcommands().values().forEach(sub -> shareVersion(sub, version));
  }

  private static String message(Exception e) {
    if (e instanceof ScmException s) {
      return s.getMessage() + " (" + s.result() + ")";
    }
    if (e instanceof OmException o) {
      return o.getMessage() + " (" + o.result() + ")";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  private static int exitCode(Exception e) {
    if (e instanceof ConfigException) {
      return ExitCodes.BAD_CONFIG;
    }
    if (e instanceof ScmException s) {
      return s.result() == ScmResult.SCM_NOT_READY ? ExitCodes.UNAVAILABLE : ExitCodes.FAILED;
    }
    if (e instanceof OmException o) {
      return o.result() == OmResult.OM_NOT_READY ? ExitCodes.UNAVAILABLE : ExitCodes.FAILED;
    }
    if (e instanceof StatusRuntimeException || e instanceof IOException) {
      return ExitCodes.FAILED;
    }
    return ExitCodes.FAILED;
  }
}
