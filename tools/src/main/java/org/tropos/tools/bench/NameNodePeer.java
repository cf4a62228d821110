package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.qjournal.MiniQJMHACluster;
import org.apache.hadoop.hdfs.server.namenode.TroposNameNodeBench;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.ExitUtil;

/**
 * The HDFS NameNode as the peer of OM HA, in this process through Hadoop's own mini clusters: a single NameNode
 * with its edit log on local disk, or an HA pair whose edits go to a quorum of three JournalNodes (QJM, the
 * NameNode's answer to a replicated namespace) with the standby tailing them. Files are created and closed with
 * the calls a client makes (create, complete), straight on the active NameNode's RPC server, as the OM's creates
 * go straight to its request path.
 */
final class NameNodePeer implements AutoCloseable {
  private final AutoCloseable cluster;
  private final NamenodeProtocols active;

  private NameNodePeer(AutoCloseable cluster, NamenodeProtocols active) {
    this.cluster = cluster;
    this.active = active;
  }

  /** One NameNode, no DataNode, its name and edits directories under {@code dir}. */
  static NameNodePeer single(Path dir) throws IOException {
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf(), dir.toFile()).numDataNodes(0).build();
    cluster.waitActive();
    return new NameNodePeer(cluster::shutdown, cluster.getNameNodeRpc());
  }

  /** Two NameNodes of one nameservice on three JournalNodes, the first made active; no DataNode. */
  static NameNodePeer ha(Path dir) throws IOException {
    MiniQJMHACluster.Builder builder = new MiniQJMHACluster.Builder(conf(), dir.toFile());
    builder.getDfsBuilder().numDataNodes(0);
    MiniQJMHACluster cluster = builder.build();
    try {
      cluster.getDfsCluster().waitActive();
      cluster.getDfsCluster().transitionToActive(0);
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return new NameNodePeer(cluster, cluster.getDfsCluster().getNameNodeRpc(0));
  }

  /** A Hadoop configuration for a mini cluster in this process. */
  static Configuration conf() {
    Configuration conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    // A mini cluster registers metrics sources more than once; and no Hadoop service may exit this JVM.
    DefaultMetricsSystem.setMiniClusterMode(true);
    ExitUtil.disableSystemExit();
    return conf;
  }

  /** Creates and closes an empty file, as a client's create and close do. */
  void create(String path) throws IOException {
    TroposNameNodeBench.createAndClose(active, path, "bench-" + Thread.currentThread().getId(),
        DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
