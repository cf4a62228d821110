package org.tropos.tools.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.hadoop.TroposFileSystem;
import org.tropos.common.conf.ConfigLoader;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.ScmAddresses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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

  @Option(names = "--conf", paramLabel = "DIR",
      description = "Directory with ozone-site.xml (default: $OZONE_CONF_DIR, else ./conf); first if given.")
  private Path confDir;

  @Unmatched
  private List<String> shellArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    Configuration conf = new ConfigLoader(LOG::warn).load(ConfigLoader.resolveConfDir(confDir, System.getenv()));
    return ToolRunner.run(hadoopConf(conf), new FsShell(), shellArgs.toArray(new String[0]));
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
