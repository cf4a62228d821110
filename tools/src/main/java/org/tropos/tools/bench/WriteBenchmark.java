package org.tropos.tools.bench;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import org.tropos.client.BlockClient;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.tools.cli.ExitCodes;
import org.tropos.tools.local.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench write}: 3-replica writes through the real client path (SCM allocation, Ratis, commit on
 * all replicas) by concurrent writers, small and large objects, on a local cluster with each pipeline limit in
 * turn (single-Raft, limit 1, is the seed's baseline); throughput and p50/p99 latency per object.
 */
@Command(name = "write", mixinStandardHelpOptions = true,
    description = {"Concurrent 3-replica writes of small and large objects on a local cluster, once per pipeline",
        "limit (default 1 then 3): throughput and p50/p99 latency."})
public final class WriteBenchmark implements Callable<Integer> {
  private static final int MB = 1 << 20;

  @Option(names = "--datanodes", defaultValue = "6", description = "Datanodes (default 6).")
  private int datanodes;

  @Option(names = "--limits", split = ",", defaultValue = "1,3", description = "Pipeline limits (default 1,3).")
  private List<Integer> limits;

  @Option(names = "--writers", defaultValue = "16", description = "Concurrent writers (default 16).")
  private int writers;

  @Option(names = "--small", defaultValue = "100KB", description = "Small object size (default 100KB).")
  private String small;

  @Option(names = "--small-count", defaultValue = "40", description = "Small objects per writer (default 40).")
  private int smallCount;

  @Option(names = "--large", defaultValue = "64MB", description = "Large object size (default 64MB).")
  private String large;

  @Option(names = "--large-count", defaultValue = "1", description = "Large objects per writer (default 1).")
  private int largeCount;

  @Option(names = "--dir", description = "Where the clusters live (default: a temporary directory).")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON object per limit.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;
  private final ByteBuffer pattern = randomPattern();

  /** The outcome of one phase: bytes per second and latency per object. */
  record Phase(long objects, long bytes, double mbps, double p50Ms, double p99Ms) {
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<Phase[]> results = new ArrayList<>();
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-write")) {
      for (int limit : limits) {
        Phase[] phases = runCluster(benchDir, "limit" + limit, limit);
        results.add(phases);
        out.print(json ? json(limit, phases) : row(limit, phases));
        out.flush();
      }
    }
    if (!json && results.size() > 1) {
      Phase[] base = results.get(0);
      Phase[] last = results.get(results.size() - 1);
      out.printf(Locale.ROOT, "limit %d vs %d: small %.2fx throughput, p99 %.2fx; large %.2fx throughput,"
          + " p99 %.2fx%n",
          limits.get(limits.size() - 1), limits.get(0), last[0].mbps() / base[0].mbps(),
          last[0].p99Ms() / base[0].p99Ms(), last[1].mbps() / base[1].mbps(), last[1].p99Ms() / base[1].p99Ms());
    }
    out.flush();
    return ExitCodes.OK;
  }

  private Phase[] runCluster(BenchDir benchDir, String clusterDir, int limit) throws Exception {
    Configuration conf = BenchClusters.config().with("ozone.scm.datanode.pipeline.limit", Integer.toString(limit));
    try (LocalCluster cluster = new LocalCluster(benchDir.path().resolve(clusterDir), datanodes, 1,
        Math.max(1, limit), conf); AutoCloseable stop = benchDir.stopOnExit(cluster)) {
      cluster.start();
      BenchClusters.awaitPipelines(new HostPort("127.0.0.1", cluster.scm().clientPort()), limit * datanodes / 3);
      try (ScmBlockClient scm = new ScmBlockClient(new HostPort("127.0.0.1", cluster.scm().blockPort()));
          BlockClient blocks = BlockClient.over(scm, "127.0.0.1")) {
        Phase smallPhase = phase(blocks, DataSize.parse(small).bytes(), smallCount);
        Phase largePhase = phase(blocks, DataSize.parse(large).bytes(), largeCount);
        return new Phase[] {smallPhase, largePhase};
      }
    }
  }

  /** {@code writers} threads write {@code count} objects each (on average) of {@code size} bytes. */
  private Phase phase(BlockClient blocks, long size, int count) throws Exception {
    long objects = (long) writers * count;
    ConcurrentOps.Result r = ConcurrentOps.run(clock, "bench-writer", writers, objects,
        i -> writeObject(blocks, size));
    return new Phase(objects, objects * size, objects * size / 1e6 / r.seconds(), r.p50Ms(), r.p99Ms());
  }

  private void writeObject(BlockClient blocks, long size) throws Exception {
    BlockWriteSettings settings = new BlockWriteSettings(256L * MB, 4 * MB, 16 * 1024, 4, 5,
        ReplicationFactor.THREE, Duration.ofSeconds(30));
    try (BlockWriter writer = blocks.newWriter(settings)) {
      long left = size;
      while (left > 0) {
        int n = (int) Math.min(left, pattern.capacity());
        writer.write(pattern.duplicate().limit(n));
        left -= n;
      }
      writer.finish();
    }
  }

  private static ByteBuffer randomPattern() {
    byte[] bytes = new byte[MB];
    new Random(1).nextBytes(bytes);
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  private String row(int limit, Phase[] p) {
    return String.format(Locale.ROOT, "limit %d (%d datanodes, %d writers): small %s x%d %.1f MB/s p50 %.1f ms"
        + " p99 %.1f ms; large %s x%d %.1f MB/s p50 %.0f ms p99 %.0f ms%n", limit, datanodes, writers, small,
        p[0].objects(), p[0].mbps(), p[0].p50Ms(), p[0].p99Ms(), large, p[1].objects(), p[1].mbps(), p[1].p50Ms(),
        p[1].p99Ms());
  }

  private String json(int limit, Phase[] p) {
    return String.format(Locale.ROOT, "{\"limit\":%d,\"datanodes\":%d,\"writers\":%d,\"smallBytes\":%d,"
        + "\"smallObjects\":%d,\"smallMBps\":%.2f,\"smallP50Ms\":%.2f,\"smallP99Ms\":%.2f,\"largeBytes\":%d,"
        + "\"largeObjects\":%d,\"largeMBps\":%.2f,\"largeP50Ms\":%.1f,\"largeP99Ms\":%.1f}%n", limit, datanodes,
        writers, DataSize.parse(small).bytes(), p[0].objects(), p[0].mbps(), p[0].p50Ms(), p[0].p99Ms(),
        DataSize.parse(large).bytes(), p[1].objects(), p[1].mbps(), p[1].p50Ms(), p[1].p99Ms());
  }
}
