package org.tropos.it;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.rules.ExternalResource;

/**
 * Hadoop's FileSystem contract bound to {@code tropos://} on a mini cluster (one per JVM: a test class run
 * alone, or all of them in {@link HadoopContractOnTroposIT}). What the FileSystem supports is declared in
 * {@code contract/tropos.xml}.
 */
public class TroposContract extends AbstractFSContract {
  private static final Map<String, String> SETTINGS = Map.of("ozone.scm.block.size", "4MB",
      "ozone.scm.chunk.size", "1MB");
  private static MiniCluster cluster;
  private static java.nio.file.Path dir;
  private FileSystem fs;

  public TroposContract(Configuration conf) {
    super(conf);
    addConfResource("contract/tropos.xml");
  }

  /** This JVM's cluster, as a test class's or a suite's {@code @ClassRule} (see {@link SharedClusterRule}). */
  static ExternalResource cluster() {
    return new SharedClusterRule(TroposContract::startCluster, TroposContract::stopCluster);
  }

  private static synchronized boolean startCluster() throws Exception {
    if (cluster != null) {
      return false;
    }
    dir = Files.createTempDirectory("tropos-contract");
    cluster = new MiniCluster(dir, 3, 1, SETTINGS);
    cluster.awaitAllHealthy();
    cluster.awaitOpenPipelines(1);
    return true;
  }

  /** Stops it with every FileSystem instance this JVM cached. */
  private static synchronized void stopCluster() throws IOException {
    FileSystem.closeAll();
    if (cluster != null) {
      cluster.close();
      cluster = null;
      org.apache.commons.io.FileUtils.deleteDirectory(dir.toFile());
    }
  }

  /** The Hadoop configuration of a client of the running cluster. */
  static Configuration clientConf(Configuration base) {
    Configuration conf = new Configuration(base);
    cluster.clientConfig().with(SETTINGS).explicitValues().forEach(conf::set);
    return conf;
  }

  static URI fsUri() {
    return URI.create("tropos://" + cluster.omAddress());
  }

  @Override
  public void init() throws IOException {
    super.init();
    fs = FileSystem.get(fsUri(), clientConf(getConf()));
  }

  @Override
  public FileSystem getTestFileSystem() {
    return fs;
  }

  @Override
  public String getScheme() {
    return "tropos";
  }

  /** Tests run in bucket {@code /contract/tests}. */
  @Override
  public Path getTestPath() {
    return new Path("/contract/tests/test");
  }
}
