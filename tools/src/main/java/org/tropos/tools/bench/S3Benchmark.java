package org.tropos.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.om.S3Secret;
import org.tropos.tools.cli.ExitCodes;
import org.tropos.tools.local.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * {@code tropos bench s3}: the S3 gateway on a local cluster, driven by the AWS SDK (PUT/GET of small and large
 * objects at a fixed concurrency) and by Hadoop's S3A (the Spark/Hive seed's job commit: a directory of 2,126
 * files renamed, for two file sizes, and one large object renamed alone). A rename must not grow with the
 * size: the bytes the datanodes' disks gain during it are measured.
 */
@Command(name = "s3", mixinStandardHelpOptions = true,
    description = "S3 gateway: PUT/GET latency and throughput, and S3A renames of 2,126 files (seed's job commit).")
public final class S3Benchmark implements Callable<Integer> {
  private static final int MB = 1 << 20;

  @Option(names = "--datanodes", defaultValue = "3", description = "Datanodes (default 3).")
  private int datanodes;

  @Option(names = "--concurrency", defaultValue = "16", description = "Concurrent requests (default 16).")
  private int concurrency;

  @Option(names = "--small", defaultValue = "100KB", description = "Small object size (default 100KB).")
  private String small;

  @Option(names = "--small-count", defaultValue = "3200", description = "Small objects (default 3200).")
  private int smallCount;

  @Option(names = "--warmup", defaultValue = "800",
      description = "Small objects PUT and GET before anything is measured, so the JIT has compiled the paths"
          + " (default 800).")
  private int warmup;

  @Option(names = "--large", defaultValue = "64MB", description = "Large object size (default 64MB).")
  private String large;

  @Option(names = "--large-count", defaultValue = "16", description = "Large objects (default 16).")
  private int largeCount;

  @Option(names = "--files", defaultValue = "2126", description = "Files in the renamed directory (default 2126).")
  private int files;

  @Option(names = "--file-sizes", split = ",", defaultValue = "1KB,1MB",
      description = "Sizes of the renamed files (default 1KB,1MB).")
  private List<String> fileSizes;

  @Option(names = "--huge", defaultValue = "1GB",
      description = "The object renamed alone, taking turns with a 1 KB one for comparison (default 1GB; 0 skips"
          + " both).")
  private String huge;

  @Option(names = "--single-renames", defaultValue = "5",
      description = "Renames of each lone object; the median is reported (default 5).")
  private int singleRenames;

  @Option(names = "--dir", description = "Where the cluster lives (default: a temporary directory).")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON object per run.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path root = dir != null ? dir : Files.createTempDirectory("tropos-bench-s3");
    Configuration conf = BenchClusters.config();
    try (LocalCluster cluster = new LocalCluster(root.resolve("cluster"), datanodes, 1, 1, conf)) {
      cluster.start();
      BenchClusters.awaitPipelines(new HostPort("127.0.0.1", cluster.scm().clientPort()), 1);
      S3Secret secret;
      try (TroposClient om = TroposClient.create(conf.with("ozone.om.address", "127.0.0.1:" + cluster.om().port()))) {
        secret = om.getS3Secret("bench", true);
      }
      try (S3Client s3 = client(cluster.s3Endpoint(), secret)) {
        s3.createBucket(b -> b.bucket("bench"));
        warmUp(s3, DataSize.parse(small).bytes());
        transfers(s3, out, DataSize.parse(small).bytes(), smallCount);
        transfers(s3, out, DataSize.parse(large).bytes(), largeCount);
        try (FileSystem fs = S3ARenames.fileSystem(cluster.s3Endpoint(), secret, root.resolve("hadoop-tmp"))) {
          S3ARenames renames = new S3ARenames(s3, fs, clock, concurrency, () -> diskBytes(root.resolve("cluster")));
          for (String size : fileSizes) {
            print(out, renames.directory(files, DataSize.parse(size).bytes()));
          }
          long hugeBytes = DataSize.parse(huge).bytes();
          if (hugeBytes > 0) {
            for (S3ARenames.Renamed r : renames.singles(new long[] {1024, hugeBytes}, singleRenames)) {
              print(out, r);
            }
          }
        }
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  static S3Client client(String endpoint, S3Secret secret) {
    return S3Client.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(secret.getAccessId(),
            secret.getSecret())))
        .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
        .httpClientBuilder(ApacheHttpClient.builder().maxConnections(64))
        .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofMinutes(10))).build();
  }

  private void warmUp(S3Client s3, long size) throws Exception {
    byte[] content = new byte[(int) size];
    ConcurrentOps.run(clock, "bench-s3", concurrency, warmup, i -> s3.putObject(p -> p.bucket("bench")
        .key("warmup-" + i), RequestBody.fromBytes(content)));
    ConcurrentOps.run(clock, "bench-s3", concurrency, warmup, i -> s3.getObjectAsBytes(g -> g.bucket("bench")
        .key("warmup-" + i)));
  }

  /** PUT then GET {@code count} objects of {@code size} bytes at the set concurrency. */
  private void transfers(S3Client s3, PrintWriter out, long size, int count) throws Exception {
    byte[] content = new byte[(int) Math.min(size, 8 * MB)];
    new Random(size).nextBytes(content);
    ConcurrentOps.Result put = ConcurrentOps.run(clock, "bench-s3", concurrency, count, i -> s3.putObject(
        p -> p.bucket("bench").key("obj-" + size + "-" + i), RequestBody.fromContentProvider(
            () -> repeat(content, size), size, "application/octet-stream")));
    printTransfer(out, "put", size, put);
    ConcurrentOps.Result get = ConcurrentOps.run(clock, "bench-s3", concurrency, count, i -> s3.getObject(
        g -> g.bucket("bench").key("obj-" + size + "-" + i), ResponseTransformer.toInputStream()).transferTo(
            java.io.OutputStream.nullOutputStream()));
    printTransfer(out, "get", size, get);
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

  private void printTransfer(PrintWriter out, String op, long size, ConcurrentOps.Result r) {
    double mbPerSec = r.ops() * (double) size / MB / r.seconds();
    if (json) {
      out.printf(Locale.ROOT, "{\"op\":\"%s\",\"sizeBytes\":%d,\"concurrency\":%d,\"objects\":%d,\"opsPerSec\":%.1f,"
          + "\"mbPerSec\":%.1f,\"p50Ms\":%.2f,\"p99Ms\":%.2f,\"maxMs\":%.2f}%n", op, size, concurrency, r.ops(),
          r.opsPerSec(), mbPerSec, r.p50Ms(), r.p99Ms(), r.maxMs());
    } else {
      out.printf(Locale.ROOT, "%-4s %9d B x%-5d concurrency %-3d %9.1f ops/s %8.1f MB/s   p50 %7.2f ms  p99 %7.2f ms"
          + "  max %7.2f ms%n", op, size, r.ops(), concurrency, r.opsPerSec(), mbPerSec, r.p50Ms(), r.p99Ms(),
          r.maxMs());
    }
    out.flush();
  }

  /** As JSON, the transfers' fields too: rates over the (median) rename, p50 the median, p99 the slowest. */
  private void print(PrintWriter out, S3ARenames.Renamed r) {
    if (json) {
      out.printf(Locale.ROOT, "{\"op\":\"rename\",\"files\":%d,\"sizeBytes\":%d,\"concurrency\":1,\"seconds\":%.3f,"
          + "\"perFileMs\":%.2f,\"opsPerSec\":%.1f,\"mbPerSec\":%.1f,\"p50Ms\":%.2f,\"p99Ms\":%.2f,"
          + "\"bytesWrittenToDatanodes\":%d,\"renames\":%d}%n", r.files(), r.sizeBytes(), r.seconds(),
          r.seconds() * 1000 / r.files(), r.files() / r.seconds(),
          r.files() * (double) r.sizeBytes() / MB / r.seconds(), r.seconds() * 1000, r.maxSeconds() * 1000,
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
