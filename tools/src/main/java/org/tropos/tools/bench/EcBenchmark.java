package org.tropos.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.tropos.client.KeyOutputStream;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DataSize;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.tools.cli.ExitCodes;
import org.tropos.tools.local.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench ec}: erasure coding against three replicas in one run on one local cluster of ten
 * datanodes on two racks. Keys of each size are PUT and GET (verified) through the Java client in buckets of
 * RATIS/THREE, rs-3-2-1024k and rs-6-3-1024k, and the bytes their blocks take on the datanodes' disks counted per
 * logical byte. Then GETs of the large EC keys with one and with parity datanodes holding their data indexes
 * stopped (degraded reads), and, with those started again, a datanode holding EC indexes stops for good and the
 * replication manager rebuilds them elsewhere ({@link EcRebuildPhase}): rebuilt MB/s against a plain copy of the
 * same datanode's data on this disk. Every key is read back at the end.
 */
@Command(name = "ec", mixinStandardHelpOptions = true,
    description = {"Erasure coding (rs-3-2, rs-6-3) against RATIS/THREE in one run: PUT and GET MB/s, disk bytes per",
        "logical byte, degraded GETs, rebuild MB/s against a plain copy; keys lost."})
public final class EcBenchmark implements Callable<Integer> {
  static final List<String> CONFIGS = List.of("RATIS/THREE", "rs-3-2-1024k", "rs-6-3-1024k");
  /** Nine for rs-6-3's nine indexes, and one more to rebuild an index on after one of them stops. */
  private static final int DATANODES = 10;

  @Option(names = "--large", defaultValue = "1GB", description = "The large key (default 1GB).")
  private String large;

  @Option(names = "--small", defaultValue = "64MB", description = "The small key (default 64MB).")
  private String small;

  @Option(names = "--dir", description = "Where the cluster lives (default: a temporary directory).")
  private Path dir;

  @Option(names = "--hdfs-peer", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = {"Also rebuild on HDFS in this run: the same files on a MiniDFSCluster of as many DataNodes, one",
          "stopped (default; --no-hdfs-peer skips it)."})
  private boolean hdfsPeer;

  @Option(names = "--json", description = "Print one JSON object.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  /** One key's PUT and GET as measured, and the bytes its blocks take on the datanodes. */
  record Transfer(String replication, long bytes, double putMBps, double getMBps, long storedBytes) {
    double storedPerByte() {
      return (double) storedBytes / bytes;
    }
  }

  /** A GET of a large EC key with {@code gone} datanodes holding its data indexes stopped. */
  record DegradedGet(String replication, int gone, double getMBps, double healthyMBps) {
  }

  /** What the run measured. */
  record Result(List<Transfer> transfers, List<DegradedGet> degraded, EcRebuildPhase.Rebuild rebuild,
      Optional<EcRebuildPhase.Rebuild> hdfsRebuild, int keys, int lostKeys) {
    Result withHdfs(EcRebuildPhase.Rebuild peer) {
      return new Result(transfers, degraded, rebuild, Optional.of(peer), keys, lostKeys);
    }
  }

  @Override
  public Integer call() throws Exception {
    Result result;
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-ec")) {
      result = run(benchDir.path(), benchDir);
      if (hdfsPeer) {
        result = result.withHdfs(new HdfsEcRebuildPeer(benchDir, clock).run(DATANODES,
            List.of(DataSize.parse(small).bytes(), DataSize.parse(large).bytes())));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? EcBenchReport.json(result) : EcBenchReport.text(result));
    out.flush();
    return result.lostKeys() == 0 && result.rebuild().healed() ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private Result run(Path root, BenchDir benchDir) throws Exception {
    // SCM declares a stopped datanode DEAD only after the degraded reads; the rebuild phase shortens the wait.
    Configuration conf = BenchClusters.config().with(Map.of("ozone.scm.stale.node.interval", "3s",
        "ozone.scm.dead.node.interval", "10m", "hdds.scm.replication.thread.interval", "1s"));
    try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), DATANODES, 1, 1, conf);
        AutoCloseable stop = benchDir.stopOnExit(cluster)) {
      cluster.start();
      try (TroposClient client = TroposClient.create(conf.with(Map.of("ozone.om.address", "127.0.0.1:"
          + cluster.om().port(), "ozone.scm.block.client.address", "127.0.0.1:" + cluster.scm().blockPort()))
          .with(cluster.securityKeys()))) {
        return measure(cluster, client, root);
      }
    }
  }

  private Result measure(LocalCluster cluster, TroposClient client, Path root) throws Exception {
    cluster.awaitWritable(ReplicationFactor.THREE, Duration.ofSeconds(60));
    client.createVolume(VolumeInfo.newBuilder().setName("bench").setOwner("bench").build());
    List<Transfer> transfers = new ArrayList<>();
    List<EcKeys.Key> keys = new ArrayList<>();
    for (String config : CONFIGS) {
      client.createBucket(bucket(config));
      for (String size : List.of(small, large)) {
        EcKeys.Key key = put(client, config, DataSize.parse(size).bytes());
        keys.add(key);
        double getMBps = get(client, key);
        transfers.add(new Transfer(config, key.bytes(), key.putMBps(), getMBps, EcKeys.storedBytes(cluster, client,
            key)));
      }
    }
    List<DegradedGet> degraded = new ArrayList<>();
    for (String config : CONFIGS.subList(1, CONFIGS.size())) {
      EcKeys.Key key = keys.stream().filter(k -> k.replication().equals(config)
          && k.bytes() == DataSize.parse(large).bytes()).findFirst().orElseThrow();
      double healthy = transfers.stream().filter(t -> t.replication().equals(config) && t.bytes() == key.bytes())
          .findFirst().orElseThrow().getMBps();
      EcReplication ec = EcReplication.parse(config);
      for (int gone : new int[] {1, ec.parity()}) {
        List<Integer> stopped = EcKeys.stopDataIndexHolders(cluster, client, key, gone);
        degraded.add(new DegradedGet(config, gone, get(client, key), healthy));
        for (int i : stopped) {
          cluster.startDatanode(i);
        }
      }
    }
    EcRebuildPhase.Rebuild rebuild = new EcRebuildPhase(cluster, root, clock).run();
    int lost = 0;
    for (EcKeys.Key key : keys) {
      lost += Arrays.equals(digest(client, key), key.sha256()) ? 0 : 1;
    }
    return new Result(transfers, degraded, rebuild, Optional.empty(), keys.size(), lost);
  }

  private static BucketInfo bucket(String config) {
    BucketInfo.Builder bucket = BucketInfo.newBuilder().setVolume("bench").setName(EcKeys.bucketOf(config))
        .setLayout(BucketLayout.OBJECT_STORE);
    return config.startsWith("RATIS") ? bucket.setFactor(ReplicationFactor.THREE).build()
        : bucket.setEc(EcReplication.parse(config).toProto()).build();
  }

  private EcKeys.Key put(TroposClient client, String config, long bytes) throws Exception {
    String name = "key-" + bytes;
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    long start = clock.monotonicNanos();
    try (KeyOutputStream out = client.createKey(OpenKeyRequest.newBuilder().setVolume("bench")
        .setBucket(EcKeys.bucketOf(config)).setKey(name).setSize(bytes).build())) {
      EcKeys.writeContent(out, bytes, digest);
    }
    double seconds = (clock.monotonicNanos() - start) / 1e9;
    return new EcKeys.Key(config, name, bytes, bytes / 1e6 / seconds, digest.digest());
  }

  /** Reads the key, verified against its digest; MB/s (0 when it read back wrong). */
  private double get(TroposClient client, EcKeys.Key key) throws Exception {
    long start = clock.monotonicNanos();
    byte[] read = digest(client, key);
    double seconds = (clock.monotonicNanos() - start) / 1e9;
    return Arrays.equals(read, key.sha256()) ? key.bytes() / 1e6 / seconds : 0;
  }

  private static byte[] digest(TroposClient client, EcKeys.Key key) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    byte[] buffer = new byte[4 << 20];
    try (InputStream in = client.readKey("bench", EcKeys.bucketOf(key.replication()), key.name())) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
    } catch (IOException e) {
      return new byte[0];
    }
    return digest.digest();
  }
}
