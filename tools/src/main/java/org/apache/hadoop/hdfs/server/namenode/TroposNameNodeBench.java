package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.ExitUtil;

/**
 * Tropos's access to Hadoop's own NameNode throughput benchmark (NNThroughputBenchmark, hadoop-hdfs tests jar)
 * for {@code tropos bench om}. It lives in the NameNode's package because the benchmark's constructor, its
 * statistics classes and their getters are package-private, and it only logs its results; calling them from
 * here keeps the measurement Hadoop's own, checked by the compiler against the jar, without reflection.
 *
 * <p>The NameNode runs in this process on a freshly formatted name directory with its edit log synced as in
 * production. NNThroughputBenchmark keeps the NameNode in static fields: one instance per JVM at a time.
 */
public final class TroposNameNodeBench implements AutoCloseable {
  private static final EnumSetWritable<CreateFlag> OVERWRITE =
      new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE));

  private final NNThroughputBenchmark bench;
  private final NameNode nameNode;

  private TroposNameNodeBench(Configuration conf) throws IOException {
    bench = new NNThroughputBenchmark(conf);
    FileSystem.setDefaultUri(conf, "hdfs://localhost:0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    nameNode = NameNode.createNameNode(new String[0], conf);
    NNThroughputBenchmark.nameNode = nameNode;
    NamenodeProtocols rpc = nameNode.getRpcServer();
    NNThroughputBenchmark.nameNodeProto = rpc;
    NNThroughputBenchmark.clientProto = rpc;
    NNThroughputBenchmark.dataNodeProto = rpc;
    NNThroughputBenchmark.refreshUserMappingsProto = rpc;
    NNThroughputBenchmark.bpid = nameNode.getNamesystem().getBlockPoolId();
    rpc.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE, false);
  }

  /** Formats a name directory under {@code dir} and starts a NameNode on it. */
  public static TroposNameNodeBench start(Path dir) throws IOException {
    Configuration conf = new HdfsConfiguration();
    conf.set("hadoop.tmp.dir", dir.toAbsolutePath().toString());
    conf.set("fs.defaultFS", "file:///");
    // Formatting registers metrics sources that the NameNode registers again.
    DefaultMetricsSystem.setMiniClusterMode(true);
    ExitUtil.disableSystemExit();
    NameNode.format(conf);
    return new TroposNameNodeBench(conf);
  }

  /**
   * NNThroughputBenchmark's own create operation: {@code files} files created and closed by {@code threads}
   * threads, all in one directory; returns its operations per second.
   */
  public double createInOneDirectory(int threads, int files) throws IOException {
    List<String> args = new ArrayList<>(List.of("-op", "create", "-threads", Integer.toString(threads), "-files",
        Integer.toString(files), "-filesPerDir", Integer.toString(files), "-close"));
    NNThroughputBenchmark.CreateFileStats op = bench.new CreateFileStats(args);
    op.benchmark();
    double opsPerSec = op.getOpsPerSecond();
    op.cleanUp();
    return opsPerSec;
  }

  /** Creates and closes a file (what NNThroughputBenchmark's create does with -close). */
  public void create(String path, String client) throws IOException {
    createAndClose(NNThroughputBenchmark.clientProto, path, client, 16);
  }

  /** Creates and closes an empty file through {@code nameNode}'s RPC server, as a client's create and close do. */
  public static void createAndClose(ClientProtocol nameNode, String path, String client, long blockSize)
      throws IOException {
    nameNode.create(path, FsPermission.getDefault(), client, OVERWRITE, true, (short) 3, blockSize,
        CryptoProtocolVersion.supported(), null, null);
    while (!nameNode.complete(path, client, null, HdfsConstants.GRANDFATHER_INODE_ID)) {
      Thread.onSpinWait();
    }
  }

  /** The status of a file (what its fileStatus operation does). */
  public void stat(String path) throws IOException {
    NNThroughputBenchmark.clientProto.getFileInfo(path);
  }

  @Override
  public void close() {
    bench.close();
    nameNode.join();
    NNThroughputBenchmark.nameNode = null;
    NNThroughputBenchmark.clientProto = null;
    NNThroughputBenchmark.nameNodeProto = null;
    NNThroughputBenchmark.dataNodeProto = null;
    NNThroughputBenchmark.refreshUserMappingsProto = null;
  }
}
