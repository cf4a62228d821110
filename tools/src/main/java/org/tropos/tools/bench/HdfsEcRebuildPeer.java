package org.tropos.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedStripedBlock;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;

/**
 * The peer of {@link EcRebuildPhase} on this machine: HDFS's own erasure coding. The benchmark's keys are written as
 * files of the same sizes under the same configs (policies RS-3-2-1024k and RS-6-3-1024k, three replicas) to a
 * MiniDFSCluster of as many DataNodes in this process; every block file is dropped from the page cache (HDFS writes
 * through it, Tropos past it: both rebuilds read from the disk); the DataNode holding the most erasure-coded block
 * bytes stops and is declared dead at once, and the time until every index it held is located on a live DataNode
 * again is measured against a plain copy of that DataNode's data on this disk.
 *
 * <p>The NameNode's scheduler is opened wide (its work every second, up to 64 streams a DataNode) so that what is
 * measured is HDFS's reconstruction, not its throttles. HDFS codes on Hadoop's pure Java coder here: it loads ISA-L
 * only through its own native library, which Maven does not publish.
 */
final class HdfsEcRebuildPeer {
  private static final Duration LIMIT = Duration.ofMinutes(5);
  private static final Map<String, String> POLICIES = Map.of("rs-3-2-1024k", "RS-3-2-1024k",
      "rs-6-3-1024k", "RS-6-3-1024k");
  private static final int STREAMS = 64;

  private final BenchDir benchDir;
  private final Path root;
  private final Clock clock;

  HdfsEcRebuildPeer(BenchDir benchDir, Clock clock) {
    this.benchDir = benchDir;
    this.root = benchDir.path();
    this.clock = clock;
  }

  EcRebuildPhase.Rebuild run(int datanodes, List<Long> sizes) throws Exception {
    Configuration conf = NameNodePeer.conf();
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, 1);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, STREAMS);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, STREAMS);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, STREAMS);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, root.resolve("hdfs").toFile())
        .numDataNodes(datanodes).storagesPerDatanode(1).build(); // one volume each, as the Tropos datanodes'
    try (AutoCloseable stop = benchDir.stopOnExit(cluster::shutdown)) {
      cluster.waitActive();
      DistributedFileSystem fs = cluster.getFileSystem();
      List<org.apache.hadoop.fs.Path> ecFiles = write(fs, sizes);
      int indexes = locatedIndexes(fs, ecFiles);
      List<Path> dirs = new ArrayList<>();
      for (int i = 0; i < datanodes; i++) {
        dirs.addAll(storageDirs(cluster, i));
      }
      for (Path dir : dirs) {
        PageCache.evict(dir);
      }
      int victim = busiest(cluster, datanodes);
      List<Path> victimDirs = storageDirs(cluster, victim);
      int replicas = 0;
      long bytes = 0;
      for (Path dir : victimDirs) {
        for (Path block : ecBlocks(dir)) {
          replicas++;
          bytes += Files.size(block);
        }
      }
      DatanodeID id = cluster.getDataNodes().get(victim).getDatanodeId();
      cluster.stopDataNode(victim);
      cluster.setDataNodeDead(id);
      long dead = clock.monotonicNanos();
      boolean healed = true;
      try {
        Threads.awaitCondition("every lost index rebuilt on HDFS", LIMIT, Duration.ofMillis(200),
            () -> locatedIndexes(fs, ecFiles) >= indexes);
      } catch (TimeoutException e) {
        healed = false;
      }
      double seconds = (clock.monotonicNanos() - dead) / 1e9;
      long copied = 0;
      double copySeconds = 0;
      for (Path dir : victimDirs) {
        CopyLimit.Copy copy = CopyLimit.measure(dir, root.resolve("hdfs-copy-limit").resolve(dir.getFileName()),
            clock);
        copied += copy.bytes();
        copySeconds += copy.seconds();
      }
      return new EcRebuildPhase.Rebuild(replicas, bytes, seconds, copied, copied / 1e6 / copySeconds, healed);
    } finally {
      cluster.shutdown();
    }
  }

  /** Writes a file of each size per config, as the benchmark's keys; returns the erasure-coded ones. */
  private static List<org.apache.hadoop.fs.Path> write(DistributedFileSystem fs, List<Long> sizes)
      throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256"); // the bytes are the keys'; their digest unused
    List<org.apache.hadoop.fs.Path> ecFiles = new ArrayList<>();
    for (String config : EcBenchmark.CONFIGS) {
      org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/" + EcKeys.bucketOf(config));
      fs.mkdirs(dir);
      String policy = POLICIES.get(config);
      if (policy != null) {
        fs.enableErasureCodingPolicy(policy);
        fs.setErasureCodingPolicy(dir, policy);
      }
      for (long size : sizes) {
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "key-" + size);
        try (FSDataOutputStream out = fs.create(file, (short) 3)) {
          EcKeys.writeContent(out, size, digest);
        }
        if (policy != null) {
          ecFiles.add(file);
        }
      }
    }
    return ecFiles;
  }

  /** The indexes of the files' block groups the NameNode locates on live DataNodes, each counted once. */
  private static int locatedIndexes(DistributedFileSystem fs, List<org.apache.hadoop.fs.Path> files)
      throws IOException {
    int located = 0;
    for (org.apache.hadoop.fs.Path file : files) {
      long length = fs.getFileStatus(file).getLen();
      for (LocatedBlock block : fs.getClient().getLocatedBlocks(file.toString(), 0, length).getLocatedBlocks()) {
        BitSet indexes = new BitSet();
        for (byte index : ((LocatedStripedBlock) block).getBlockIndices()) {
          indexes.set(index);
        }
        located += indexes.cardinality();
      }
    }
    return located;
  }

  /** The DataNode whose erasure-coded block files take the most bytes. */
  private static int busiest(MiniDFSCluster cluster, int datanodes) throws IOException {
    int best = 0;
    long most = -1;
    for (int i = 0; i < datanodes; i++) {
      long held = 0;
      for (Path dir : storageDirs(cluster, i)) {
        for (Path block : ecBlocks(dir)) {
          held += Files.size(block);
        }
      }
      if (held > most) {
        most = held;
        best = i;
      }
    }
    return best;
  }

  private static List<Path> storageDirs(MiniDFSCluster cluster, int datanode) {
    List<Path> dirs = new ArrayList<>();
    for (int j = 0; j < cluster.getStoragesPerDatanode(); j++) {
      dirs.add(cluster.getInstanceStorageDir(datanode, j).toPath());
    }
    return dirs;
  }

  /** Block files of erasure-coded groups: HDFS gives striped blocks negative ids ({@code blk_-...}). */
  private static List<Path> ecBlocks(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.getFileName().toString().matches("blk_-\\d+") && Files.isRegularFile(p)).toList();
    }
  }
}
