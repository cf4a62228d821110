package org.tropos.tools.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.hadoop.TroposFileSystem;
import org.tropos.common.conf.ConfigLoader;
import org.tropos.common.conf.Configuration;
import org.tropos.tools.local.LocalClientConf;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmAddresses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code tropos fs}: Hadoop's FsShell ({@code -ls}, {@code -put}, {@code -get}, {@code -mv}, {@code -rm -r},
 * {@code -du}, {@code -count}, ...) with tropos:// as the default file system, at the OM of ozone-site.xml.
 */
@Command(name = "fs", description = {"Hadoop's file system shell on Tropos: tropos fs -ls /, -put, -get, -mv,"
    + " -rm -r, -du, -count, ...", "Paths are /volume/bucket/path (or tropos://om-host:port/volume/...)."},
    footer = "Run 'tropos fs -help' for every shell command.")
public final class FsCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(FsCommand.class);
  private static final int PROBE_TIMEOUT_MS = 2000;

  @Option(names = "--conf", paramLabel = "DIR",
      description = "Directory with ozone-site.xml (default: $OZONE_CONF_DIR, else ./conf and the settings of the"
          + " tropos local started in this directory); first if given.")
  private Path confDir;

  @Unmatched
  private List<String> shellArgs = new ArrayList<>();

  @Spec
  private CommandSpec spec;

  /**
   * Runs the shell. FsShell reports each failure itself and answers -1; this turns that into the documented exit
   * codes: 4 when the OM cannot be reached (looked at only after a failure, with one connection), else 1.
   */
  @Override
  public Integer call() throws Exception {
    Configuration conf = new ConfigLoader(LOG::warn).load(ConfigLoader.resolveConfDir(confDir, System.getenv()),
        LocalClientConf.forCommand(confDir, System.getenv()));
    int code = ToolRunner.run(hadoopConf(conf), new FsShell(), shellArgs.toArray(new String[0]));
    if (code == 0) {
      return ExitCodes.OK;
    }
    HostPort om = ScmAddresses.omService(conf);
    Optional<String> unreachable = unreachable(om);
    if (unreachable.isPresent()) {
      spec.commandLine().getErr().println("tropos: cannot reach the OM at " + om + " (" + unreachable.get() + ")"
          + FailureReport.whatToTry("tropos om"));
      return ExitCodes.UNAVAILABLE;
    }
    return ExitCodes.FAILED;
  }

  /** Why nothing listens at {@code address}, or empty when a connection opens. */
  private static Optional<String> unreachable(HostPort address) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address.host(), address.port()), PROBE_TIMEOUT_MS);
      return Optional.empty();
    } catch (UnknownHostException e) {
      return Optional.of("unknown host");
    } catch (IOException e) {
      return Optional.of(e.getMessage() == null ? e.toString() : e.getMessage().toLowerCase(Locale.ROOT));
    }
  }

  /** Tropos's settings, with tropos:// at the configured OM as the default file system. */
  static org.apache.hadoop.conf.Configuration hadoopConf(Configuration conf) {
    org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
    conf.explicitValues().forEach(hadoop::set);
    hadoop.set("fs.defaultFS", TroposFileSystem.SCHEME + "://" + ScmAddresses.omService(conf) + "/");
    hadoop.set("fs." + TroposFileSystem.SCHEME + ".impl", TroposFileSystem.class.getName());
    return hadoop;
  }
}
