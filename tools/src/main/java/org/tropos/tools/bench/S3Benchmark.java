package org.tropos.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.tropos.common.conf.DataSize;
import org.tropos.common.conf.SecurityKeys;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.tools.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * {@code tropos bench s3}: {@code tropos local} started in a JVM of its own and driven through its S3 gateway by
 * the AWS SDK (PUT/GET of small, large and huge objects), optionally side by side with any other S3 service
 * ({@code --peer}, MinIO say) taking turns with it, each side's server CPU per operation read from /proc; then
 * Hadoop's S3A on Tropos alone (the Spark/Hive seed's job commit: a directory of 2,126 files renamed, for two file
 * sizes, and one large object renamed alone). A rename must not grow with the size: the bytes the datanodes' disks
 * gain during it are measured.
 */
@Command(name = "s3", mixinStandardHelpOptions = true,
    description = {"S3 gateway of tropos local (a JVM of its own): PUT/GET throughput, latency and server CPU per"
        + " operation, optionally against another S3 service in the same run (--peer); S3A renames of 2,126 files"
        + " (the seed's job commit).", "Exits with 1 when a request of any phase failed."})
public final class S3Benchmark implements Callable<Integer> {
  /** The JIT compiler's share of a server's CPU below which it counts as warm. */
  private static final double WARM_JIT_SHARE = 0.05;
  /** Large objects PUT and GET once, untimed, before the large phases. */
  private static final int LARGE_WARMUP = 8;
  /** The longest wait for the servers' JIT compilers after a round of warm-up (never longer than the warm-up). */
  private static final int MAX_DRAIN_SECONDS = 60;

  @Option(names = "--datanodes", defaultValue = "3", description = "Datanodes (default 3).")
  private int datanodes;

  @Option(names = "--heap", defaultValue = "1536m", description = "The cluster JVM's heap (default 1536m).")
  private String heap;

  @Option(names = {"-D", "--set"}, paramLabel = "KEY=VALUE",
      description = "A configuration key of the cluster, e.g. ozone.replication=1 (repeatable).")
  private Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--concurrency", defaultValue = "16",
      description = "Concurrent requests for small and large objects (default 16).")
  private int concurrency;

  @Option(names = "--small", defaultValue = "100KB", description = "Small object size (default 100KB).")
  private String small;

  @Option(names = "--small-count", defaultValue = "3200", description = "Small objects (default 3200).")
  private int smallCount;

  @Option(names = "--warmup", defaultValue = "800",
      description = "Small objects PUT and GET on every service in a round of warm-up before anything is measured"
          + " (default 800; reported as warmup-put and warmup-get); 8 large objects are warmed up likewise before"
          + " the large phases.")
  private int warmup;

  @Option(names = "--warmup-max-seconds", defaultValue = "600",
      description = "Warm-up rounds go on until no server spent more than 5 %% of its CPU on compiling code in the"
          + " last one (a JVM's JIT compiler), for at most this long (default 600; 0: one round); after each, the"
          + " servers' compilers finish what it queued (up to 60 s, and never longer than this) before the next load"
          + " starts.")
  private int warmupMaxSeconds;

  @Option(names = "--get-passes", defaultValue = "4",
      description = "Times each GET phase reads every object it follows (default 4): GETs are short, one pass of a"
          + " few thousand small ones lasts a second or two.")
  private int getPasses;

  @Option(names = "--large", defaultValue = "64MB", description = "Large object size (default 64MB).")
  private String large;

  @Option(names = "--large-count", defaultValue = "16", description = "Large objects (default 16).")
  private int largeCount;

  @Option(names = "--huge", defaultValue = "1GB",
      description = "Huge object size: PUT and GET one at a time, and the object renamed alone, taking turns with a"
          + " 1 KB one for comparison (default 1GB; 0 skips both).")
  private String huge;

  @Option(names = "--huge-count", defaultValue = "2", description = "Huge objects PUT and GET (default 2).")
  private int hugeCount;

  @Option(names = "--files", defaultValue = "2126",
      description = "Files in the renamed directory (default 2126; 0 skips the directory renames).")
  private int files;

  @Option(names = "--file-sizes", split = ",", defaultValue = "1KB,1MB",
      description = "Sizes of the renamed files (default 1KB,1MB).")
  private List<String> fileSizes;

  @Option(names = "--single-renames", defaultValue = "5",
      description = "Renames of each lone object; the median is reported (default 5; 0 skips them).")
  private int singleRenames;

  @Option(names = "--peer", paramLabel = "URL", description = "Another S3 service to measure in the same run.")
  private String peer;

  @Option(names = "--peer-name", defaultValue = "peer", description = "The peer's name in the report (default"
      + " peer).")
  private String peerName;

  @Option(names = "--peer-key", description = "The peer's access key.")
  private String peerKey;

  @Option(names = "--peer-secret", description = "The peer's secret key.")
  private String peerSecret;

  @Option(names = "--peer-ca", paramLabel = "FILE", description = "The CA certificate (PEM) that signed the peer's"
      + " HTTPS certificate, e.g. MinIO's ~/.minio/certs/public.crt.")
  private Path peerCa;

  @Option(names = "--https", description = "Also drive Tropos through its gateway's HTTPS endpoint (trusting the"
      + " cluster's CA), as a side of its own (tropos-https), e.g. against a peer on HTTPS; with --unsecured, on a"
      + " secure cluster of its own.")
  private boolean https;

  @Option(names = "--unsecured", description = "Also run a tropos local with ozone.security.enabled=false in the"
      + " same run, as a side of its own (unsecured): what security costs.")
  private boolean unsecured;

  @Option(names = "--sse", description = "Also run a secure tropos local whose bench bucket encrypts every object"
      + " (SSE-S3, its default encryption) in the same run, as a side of its own (tropos-sse): what encryption at"
      + " rest costs.")
  private boolean sse;

  @Option(names = "--peer-pid", description = "The peer's server process (default: the local process listening on"
      + " the URL's port; without one, its CPU is reported as null).")
  private Long peerPid;

  @Option(names = "--dir", description = "Where the cluster lives (default: a temporary directory).")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON object per measurement.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  @Override
  public Integer call() throws Exception {
    if (peer != null && (peerKey == null || peerSecret == null)) {
      throw new ParameterException(spec.commandLine(), "--peer needs --peer-key and --peer-secret");
    }
    if (getPasses < 1) {
      throw new ParameterException(spec.commandLine(), "--get-passes must be at least 1");
    }
    PrintWriter out = spec.commandLine().getOut();
    long errors;
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-s3")) {
      errors = measure(out, benchDir);
    }
    if (errors > 0) {
      spec.commandLine().getErr().printf("tropos bench s3: %d requests failed (see errors in the report)%n", errors);
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }

  /**
   * Starts the cluster in {@code root} (and the unsecured one, and one for HTTPS beside it, when asked for), runs
   * every measurement; the requests that failed.
   */
  private long measure(PrintWriter out, BenchDir benchDir) throws Exception {
    Path root = benchDir.path();
    Map<String, String> clusterSettings = new LinkedHashMap<>(BenchClusters.FREE_PORTS);
    clusterSettings.putAll(settings);
    Deque<AutoCloseable> running = new ArrayDeque<>();
    try {
      TroposLocalProcess local = start(benchDir, root.resolve("cluster"), clusterSettings, running);
      TroposLocalProcess plain = null;
      if (unsecured) {
        Map<String, String> plainSettings = new LinkedHashMap<>(clusterSettings);
        plainSettings.put(SecurityKeys.SECURITY_ENABLED.name(), "false");
        plain = start(benchDir, root.resolve("cluster-unsecured"), plainSettings, running);
      }
      // Beside the unsecured cluster, the secure one serves one side as that one does: serving two, it would
      // carry both sides' background work (flushes, compactions, closing containers) into the cost measured.
      TroposLocalProcess httpsCluster = https && plain != null
          ? start(benchDir, root.resolve("cluster-https"), clusterSettings, running) : local;
      List<S3Side> sides = new ArrayList<>(List.of(local.awaitReady()));
      S3Side encrypted = null;
      if (sse) {
        encrypted = start(benchDir, root.resolve("cluster-sse"), clusterSettings, running).awaitReady()
            .named("tropos-sse");
        sides.add(encrypted);
      }
      if (plain != null) {
        sides.add(plain.awaitReady().named("unsecured"));
      }
      if (https) {
        sides.add(httpsCluster.awaitReady(true).named("tropos-https"));
      }
      if (peer != null) {
        sides.add(new S3Side(peerName, peer, peerKey, peerSecret, S3Side.serverPid(peer, peerPid),
            Optional.ofNullable(peerCa)));
      }
      List<S3Transfers.Target> targets = new ArrayList<>();
      try {
        for (S3Side side : sides) {
          targets.add(new S3Transfers.Target(side, side.client()));
          createBucket(targets.get(targets.size() - 1).s3(), side == encrypted);
        }
        long errors = transfers(out, targets);
        renames(out, targets.get(0), root);
        return errors;
      } finally {
        targets.forEach(t -> t.s3().close());
      }
    } finally {
      while (!running.isEmpty()) {
        running.pop().close();
      }
    }
  }

  /** A tropos local in {@code dataDir}, stopped with the benchmark (pushed on {@code running}, last first). */
  private TroposLocalProcess start(BenchDir benchDir, Path dataDir, Map<String, String> clusterSettings,
      Deque<AutoCloseable> running) throws IOException {
    TroposLocalProcess local = new TroposLocalProcess(dataDir, datanodes, heap, clusterSettings);
    running.push(local);
    running.push(benchDir.stopOnExit(local));
    return local;
  }

  /** The bench bucket; {@code encrypted}: every object in it encrypted at rest (SSE-S3, its default encryption). */
  private static void createBucket(S3Client s3, boolean encrypted) {
    try {
      s3.createBucket(b -> b.bucket(S3Transfers.BUCKET));
    } catch (BucketAlreadyOwnedByYouException e) {
      // a peer kept from an earlier run: its objects are overwritten
    }
    if (encrypted) {
      s3.putBucketEncryption(p -> p.bucket(S3Transfers.BUCKET).serverSideEncryptionConfiguration(c -> c.rules(r -> r
          .applyServerSideEncryptionByDefault(d -> d.sseAlgorithm(ServerSideEncryption.AES256)))));
    }
  }

  /** The SDK's PUTs and GETs on every service; the requests that failed. */
  private long transfers(PrintWriter out, List<S3Transfers.Target> targets) throws Exception {
    S3Transfers transfers = new S3Transfers(clock, targets, out, json, getPasses);
    long smallBytes = DataSize.parse(small).bytes();
    long warmupEnd = clock.monotonicNanos() + warmupMaxSeconds * 1_000_000_000L;
    Duration maxDrain = Duration.ofSeconds(Math.min(MAX_DRAIN_SECONDS, warmupMaxSeconds));
    while (transfers.warmUp(smallBytes, warmup, concurrency, maxDrain) > WARM_JIT_SHARE
        && clock.monotonicNanos() < warmupEnd) {
      // another round: a server still compiling is not yet what it will be after minutes of service
    }
    transfers.compare(smallBytes, smallCount, concurrency);
    long largeBytes = DataSize.parse(large).bytes();
    // Large objects run code the small ones did not: without this the JIT took 13-28 % of the large phases' CPU.
    transfers.warmUp(largeBytes, Math.min(largeCount, LARGE_WARMUP), concurrency, maxDrain);
    transfers.compare(largeBytes, largeCount, concurrency);
    long hugeBytes = DataSize.parse(huge).bytes();
    if (hugeBytes > 0 && hugeCount > 0) {
      transfers.compare(hugeBytes, hugeCount, 1);
    }
    return transfers.errors();
  }

  /** S3A's renames on Tropos, the bytes its datanodes gain during each. */
  private void renames(PrintWriter out, S3Transfers.Target tropos, Path root) throws Exception {
    long hugeBytes = DataSize.parse(huge).bytes();
    boolean singles = hugeBytes > 0 && singleRenames > 0;
    if (files == 0 && !singles) {
      return;
    }
    try (FileSystem fs = S3ARenames.fileSystem(tropos.side(), root.resolve("hadoop-tmp"))) {
      S3ARenames renames = new S3ARenames(tropos.s3(), fs, clock, concurrency,
          () -> diskBytes(root.resolve("cluster")));
      for (String size : files == 0 ? List.<String>of() : fileSizes) {
        print(out, renames.directory(files, DataSize.parse(size).bytes()));
      }
      if (singles) {
        for (S3ARenames.Renamed r : renames.singles(new long[] {1024, hugeBytes}, singleRenames)) {
          print(out, r);
        }
      }
    }
  }

  /** {@code size} bytes: {@code content} over and over. */
  static InputStream repeat(byte[] content, long size) {
    return new InputStream() {
      private long position;

      @Override
      public int read() {
        return position < size ? content[(int) (position++ % content.length)] & 0xff : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (position >= size) {
          return -1;
        }
        int offset = (int) (position % content.length);
        int n = (int) Math.min(Math.min(len, content.length - offset), size - position);
        System.arraycopy(content, offset, b, off, n);
        position += n;
        return n;
      }
    };
  }

  /** As JSON, the transfers' fields too: rates over the (median) rename, p50 the median, p99 the slowest. */
  private void print(PrintWriter out, S3ARenames.Renamed r) {
    if (json) {
      out.printf(Locale.ROOT, "{\"system\":\"tropos\",\"op\":\"rename\",\"files\":%d,\"sizeBytes\":%d,"
          + "\"concurrency\":1,\"seconds\":%.3f,\"perFileMs\":%.2f,\"opsPerSec\":%.1f,\"mbPerSec\":%.1f,"
          + "\"p50Ms\":%.2f,\"p99Ms\":%.2f,"
          + "\"bytesWrittenToDatanodes\":%d,\"renames\":%d}%n", r.files(), r.sizeBytes(), r.seconds(),
          r.seconds() * 1000 / r.files(), r.files() / r.seconds(),
          r.files() * (double) r.sizeBytes() / (1 << 20) / r.seconds(), r.seconds() * 1000, r.maxSeconds() * 1000,
          r.bytesWrittenToDatanodes(), r.renames());
    } else {
      out.printf(Locale.ROOT, "rename (S3A) %5d files of %10d B: %8.3f s, %.2f ms per file, bytes written to"
          + " datanodes %d%s%n", r.files(), r.sizeBytes(), r.seconds(), r.seconds() * 1000 / r.files(),
          r.bytesWrittenToDatanodes(), r.renames() > 1 ? " (median of " + r.renames() + ")" : "");
    }
    out.flush();
  }

  /** Bytes in the datanodes' directories (block data and Raft logs). */
  static long diskBytes(Path cluster) {
    long total = 0;
    try (Stream<Path> nodes = Files.list(cluster)) {
      for (Path node : nodes.filter(p -> p.getFileName().toString().startsWith("dn")).toList()) {
        try (Stream<Path> all = Files.walk(node)) {
          total += all.filter(Files::isRegularFile).mapToLong(p -> {
            try {
              return Files.size(p);
            } catch (IOException e) {
              return 0;
            }
          }).sum();
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot measure " + cluster + ": " + e.getMessage(), e);
    }
    return total;
  }
}
