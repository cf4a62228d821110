package org.tropos.tools.bench;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FileSystem;
import org.tropos.common.util.Clock;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Spark/Hive seed's job commit through Hadoop's S3A: a task's output directory renamed into the table (S3A
 * copies and deletes each file), and one large file renamed alone. The files are written first with the SDK.
 */
final class S3ARenames {
  /** A measured rename: {@code seconds} is the median of {@code renames} runs, {@code maxSeconds} the slowest. */
  record Renamed(int files, long sizeBytes, double seconds, double maxSeconds, long bytesWrittenToDatanodes,
      int renames) {
  }

  private final S3Client s3;
  private final FileSystem fs;
  private final Clock clock;
  private final int concurrency;
  private final LongSupplier diskBytes;
  private int run;

  S3ARenames(S3Client s3, FileSystem fs, Clock clock, int concurrency, LongSupplier diskBytes) {
    this.s3 = s3;
    this.fs = fs;
    this.clock = clock;
    this.concurrency = concurrency;
    this.diskBytes = diskBytes;
  }

  static FileSystem fileSystem(S3Side side, Path tmp) throws java.io.IOException {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    conf.set("fs.s3a.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    conf.set("hadoop.tmp.dir", tmp.toString());
    conf.set("fs.s3a.endpoint", side.endpoint());
    conf.set("fs.s3a.endpoint.region", "us-east-1");
    conf.setBoolean("fs.s3a.path.style.access", true);
    conf.setBoolean("fs.s3a.connection.ssl.enabled", false);
    conf.set("fs.s3a.access.key", side.accessKey());
    conf.set("fs.s3a.secret.key", side.secret());
    conf.set("fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    return FileSystem.newInstance(URI.create("s3a://bench/"), conf);
  }

  /** Writes {@code files} files of {@code size} bytes into a task directory, then renames the directory. */
  Renamed directory(int files, long size) throws Exception {
    String task = "job" + run + "/_temporary/0/task_0/";
    String table = "table" + run + "/date=2026-11-21";
    run++;
    byte[] content = content(size);
    ConcurrentOps.run(clock, "bench-s3", concurrency, files, i -> s3.putObject(p -> p.bucket("bench")
        .key(task + "part-" + i), RequestBody.fromContentProvider(() -> S3Benchmark.repeat(content, size), size,
            "application/octet-stream")));
    fs.mkdirs(new org.apache.hadoop.fs.Path("/" + table).getParent());
    return timed(files, size, "/" + task, "/" + table);
  }

  /**
   * Writes one object of each size, then renames each back and forth {@code repeats} times, the sizes taking
   * turns so that both meet the same conditions; a size's time is the median of its renames.
   */
  List<Renamed> singles(long[] sizes, int repeats) throws Exception {
    String[][] paths = new String[sizes.length][];
    for (int s = 0; s < sizes.length; s++) {
      String from = "/single" + run + "/_temporary/part-0";
      String to = "/single" + run + "/part-0";
      run++;
      long size = sizes[s];
      byte[] content = content(Math.min(size, 8 << 20));
      s3.putObject(p -> p.bucket("bench").key(from.substring(1)), RequestBody.fromContentProvider(
          () -> S3Benchmark.repeat(content, size), size, "application/octet-stream"));
      paths[s] = new String[] {from, to};
    }
    long[] written = new long[sizes.length];
    double[][] seconds = TakingTurns.run(sizes.length, repeats, (s, back) -> {
      Renamed one = timed(1, sizes[s], paths[s][back ? 1 : 0], paths[s][back ? 0 : 1]);
      written[s] += one.bytesWrittenToDatanodes();
      return one.seconds();
    });
    List<Renamed> result = new ArrayList<>();
    for (int s = 0; s < sizes.length; s++) {
      result.add(new Renamed(1, sizes[s], seconds[s][repeats / 2], seconds[s][repeats - 1], written[s], repeats));
    }
    return result;
  }

  private Renamed timed(int files, long size, String from, String to) throws Exception {
    long before = diskBytes.getAsLong();
    long start = clock.monotonicNanos();
    if (!fs.rename(new org.apache.hadoop.fs.Path(from), new org.apache.hadoop.fs.Path(to))) {
      throw new IllegalStateException("S3A did not rename " + from + " to " + to);
    }
    double seconds = (clock.monotonicNanos() - start) / 1e9;
    return new Renamed(files, size, seconds, seconds, Math.max(0, diskBytes.getAsLong() - before), 1);
  }

  private static byte[] content(long size) {
    byte[] content = new byte[(int) Math.max(1, Math.min(size, 8 << 20))];
    new Random(size).nextBytes(content);
    return content;
  }
}
