package org.tropos.tools.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import org.tropos.client.BlockClient;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.tools.cli.ExitCodes;
import org.tropos.tools.local.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench recovery}: how fast the cluster heals. A local cluster on two racks is filled, one datanode
 * is stopped, and SCM's replication manager copies its containers back to three replicas. Measured: the time from
 * the node being declared DEAD until every container is healthy again, the bytes the node held, and, in the same
 * run, the machine's copy limit: a plain copy of the stopped node's data directory to another directory on the
 * same disk, flushed, as the baseline recovery is held to. Every key is then read back with its checksums.
 */
@Command(name = "recovery", mixinStandardHelpOptions = true,
    description = {"Re-replication after a datanode stops, against a plain file copy of the same bytes in the same",
        "run: time to three healthy replicas, MB/s, keys lost."})
public final class RecoveryBenchmark implements Callable<Integer> {
  private static final int MB = 1 << 20;
  private static final Duration HEAL_LIMIT = Duration.ofMinutes(15);

  @Option(names = "--datanodes", defaultValue = "6", description = "Datanodes, on two racks (default 6).")
  private int datanodes;

  @Option(names = "--size", defaultValue = "2GB", description = "Bytes written before the stop (default 2GB).")
  private String size;

  @Option(names = "--key-size", defaultValue = "64MB", description = "Size of each key (default 64MB).")
  private String keySize;

  @Option(names = "--container-size", defaultValue = "128MB",
      description = "ozone.scm.container.size: the unit of copying (default 128MB).")
  private String containerSize;

  @Option(names = "--writers", defaultValue = "4", description = "Concurrent writers while filling (default 4).")
  private int writers;

  @Option(names = "--dir", description = "Where the cluster lives (default: a temporary directory).")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON object.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  /** One key as written: its blocks and the digest of its bytes. */
  private record Key(List<BlockLocation> blocks, byte[] sha256) {
  }

  /** What the run measured. */
  record Result(long bytesToRecover, int containersToRecover, double secondsSinceStop, double seconds,
      double recoveryMBps, long copyBytes, double copyLimitMBps, int keys, int lostKeys, int underReplicatedAfter) {
  }

  @Override
  public Integer call() throws Exception {
    Result result;
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-recovery")) {
      result = run(benchDir);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.print(json ? json(result) : text(result));
    out.flush();
    return result.lostKeys() == 0 && result.underReplicatedAfter() == 0 ? ExitCodes.OK : ExitCodes.FAILED;
  }

  private Result run(BenchDir benchDir) throws Exception {
    Path root = benchDir.path();
    Configuration conf = BenchClusters.config().with(Map.of("ozone.scm.container.size", containerSize,
        "ozone.scm.block.size", keySize, "ozone.scm.stale.node.interval", "3s",
        "ozone.scm.dead.node.interval", "6s", "hdds.scm.replication.thread.interval", "1s",
        // Full containers are closed a round after they fill: long enough for a whole block to be written.
        "ozone.scm.pipeline.creation.interval", "5s"));
    try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), datanodes, 1, 1, conf);
        AutoCloseable stop = benchDir.stopOnExit(cluster)) {
      cluster.start();
      HostPort scmAdmin = new HostPort("127.0.0.1", cluster.scm().clientPort());
      BenchClusters.awaitPipelines(scmAdmin, datanodes / 3);
      try (ScmAdminClient admin = new ScmAdminClient(scmAdmin);
          ScmBlockClient scm = new ScmBlockClient(new HostPort("127.0.0.1", cluster.scm().blockPort()))) {
        List<Key> keys = fill(scm);
        int victim = 1;
        UUID victimId = cluster.datanode(victim).id().uuid();
        List<ContainerSummary> held = containersOn(admin, victimId);
        long bytesToRecover = held.stream().mapToLong(ContainerSummary::getUsedBytes).sum();

        long stopped = clock.monotonicNanos();
        cluster.stopDatanode(victim);
        awaitDead(admin, victimId);
        long dead = clock.monotonicNanos();
        List<String> problems = awaitHealed(admin);
        long healed = clock.monotonicNanos();

        Path victimData = root.resolve("cluster").resolve("dn" + victim).resolve("data1");
        CopyLimit.Copy copied = CopyLimit.measure(victimData, root.resolve("copy-limit"), clock);
        int lost = lostKeys(scm, keys);
        double seconds = (healed - dead) / 1e9;
        return new Result(bytesToRecover, held.size(), (healed - stopped) / 1e9, seconds,
            bytesToRecover / 1e6 / seconds, copied.bytes(), copied.mbps(), keys.size(), lost, problems.size());
      }
    }
  }

  /** Writes {@code size} bytes in keys of {@code keySize}, {@code writers} at a time. */
  private List<Key> fill(ScmBlockClient scm) throws Exception {
    long each = DataSize.parse(keySize).bytes();
    int count = (int) Math.max(1, DataSize.parse(size).bytes() / each);
    List<Key> keys = Collections.synchronizedList(new ArrayList<>());
    try (BlockClient blocks = BlockClient.over(scm, "127.0.0.1")) {
      ConcurrentOps.run(SystemClock.INSTANCE, "bench-fill", writers, count,
          i -> keys.add(writeKey(blocks, i, each)));
    }
    return keys;
  }

  private static Key writeKey(BlockClient blocks, long seed, long bytes) throws Exception {
    BlockWriteSettings settings = new BlockWriteSettings(bytes, 4 * MB, 16 * 1024, 4, 5,
        ReplicationFactor.THREE, Duration.ofSeconds(30));
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    Random random = new Random(seed);
    byte[] piece = new byte[4 * MB];
    try (BlockWriter writer = blocks.newWriter(settings)) {
      for (long left = bytes; left > 0; left -= piece.length) {
        random.nextBytes(piece);
        int n = (int) Math.min(left, piece.length);
        digest.update(piece, 0, n);
        writer.write(ByteBuffer.wrap(piece, 0, n));
      }
      return new Key(writer.finish(), digest.digest());
    }
  }

  private static List<ContainerSummary> containersOn(ScmAdminClient admin, UUID node) throws Exception {
    List<ContainerSummary> held = new ArrayList<>();
    for (ContainerSummary c : admin.listContainers(ContainerState.CONTAINER_STATE_UNSPECIFIED,
        ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED, 0, Integer.MAX_VALUE)) {
      if (admin.container(c.getContainerId()).getReplicasList().stream()
          .anyMatch(r -> Uuids.fromProto(r.getDatanode().getUuid()).equals(node))) {
        held.add(c);
      }
    }
    return held;
  }

  private static void awaitDead(ScmAdminClient admin, UUID node) throws Exception {
    Threads.awaitCondition("the stopped datanode declared DEAD", Duration.ofSeconds(60), Duration.ofMillis(100),
        () -> admin.listDatanodes(NodeState.DEAD).stream()
            .anyMatch(d -> Uuids.fromProto(d.getDetails().getUuid()).equals(node)));
  }

  /** Polls until healed or {@link #HEAL_LIMIT}; what is still wrong then. */
  private static List<String> awaitHealed(ScmAdminClient admin) throws Exception {
    try {
      Threads.awaitCondition("every container healed", HEAL_LIMIT, Duration.ofMillis(200),
          () -> ReplicationHealth.problems(admin).isEmpty());
    } catch (TimeoutException e) {
      // reported below, with what is still wrong
    }
    return ReplicationHealth.problems(admin);
  }

  private static int lostKeys(ScmBlockClient scm, List<Key> keys) throws Exception {
    int lost = 0;
    try (BlockClient reader = BlockClient.over(scm, "127.0.0.1")) {
      for (Key key : keys) {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try {
          reader.read(key.blocks(), digest::update);
          lost += Arrays.equals(digest.digest(), key.sha256()) ? 0 : 1;
        } catch (IOException e) {
          lost++;
        }
      }
    }
    return lost;
  }

  private String text(Result r) {
    return String.format(Locale.ROOT, "%d datanodes, one stopped holding %d containers (%.1f MB): healed %.1f s"
        + " after it was declared DEAD (%.1f s after the stop), %.1f MB/s; plain copy of its %.1f MB on this"
        + " disk: %.1f MB/s; recovery at %.0f%% of the copy limit; %d of %d keys lost; %d containers not healed%n",
        datanodes, r.containersToRecover(), r.bytesToRecover() / 1e6, r.seconds(), r.secondsSinceStop(),
        r.recoveryMBps(), r.copyBytes() / 1e6, r.copyLimitMBps(), 100 * r.recoveryMBps() / r.copyLimitMBps(),
        r.lostKeys(), r.keys(), r.underReplicatedAfter());
  }

  private String json(Result r) {
    return String.format(Locale.ROOT, "{\"datanodes\":%d,\"containersToRecover\":%d,\"bytesToRecover\":%d,"
        + "\"secondsSinceStop\":%.2f,\"seconds\":%.2f,\"recoveryMBps\":%.1f,\"copyBytes\":%d,\"copyLimitMBps\":%.1f,"
        + "\"ratio\":%.3f,\"keys\":%d,\"lostKeys\":%d,\"underReplicatedAfter\":%d}%n", datanodes,
        r.containersToRecover(), r.bytesToRecover(), r.secondsSinceStop(), r.seconds(), r.recoveryMBps(),
        r.copyBytes(), r.copyLimitMBps(), r.recoveryMBps() / r.copyLimitMBps(), r.keys(), r.lostKeys(),
        r.underReplicatedAfter());
  }
}
