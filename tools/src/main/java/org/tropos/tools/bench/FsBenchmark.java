package org.tropos.tools.bench;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.tropos.client.hadoop.TroposFileSystem;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.HostPort;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.tools.cli.ExitCodes;
import org.tropos.tools.local.LocalCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The Spark/Hive seed's job commit through the Hadoop FileSystem client: 2,126 tasks, each with one output
 * file, committed into a table partition by Hadoop's FileOutputCommitter, algorithm 1 (task and job commits
 * rename directories) and 2 (task commits rename files into place); then one large file renamed alone.
 */
@Command(name = "fs", mixinStandardHelpOptions = true,
    description = "Hadoop FileSystem client: the seed's job commit (FileOutputCommitter v1 and v2) and lone renames.")
public final class FsBenchmark implements Callable<Integer> {
  private static final long MB = 1 << 20;

  @Option(names = "--datanodes", defaultValue = "3", description = "Datanodes (default 3).")
  private int datanodes;

  @Option(names = "--files", defaultValue = "2126", description = "Task outputs committed (default 2126).")
  private int files;

  @Option(names = "--file-sizes", split = ",", defaultValue = "1KB,1MB",
      description = "Sizes of the task outputs (default 1KB,1MB).")
  private List<String> fileSizes;

  @Option(names = "--huge", defaultValue = "1GB",
      description = "The file renamed alone, taking turns with a 1 KB one (default 1GB; 0 skips both).")
  private String huge;

  @Option(names = "--single-renames", defaultValue = "5",
      description = "Renames of each lone file; the median is reported (default 5).")
  private int singleRenames;

  @Option(names = "--writers", defaultValue = "16", description = "Threads writing the task outputs (default 16).")
  private int writers;

  @Option(names = "--dir", description = "Where the cluster lives (default: a temporary directory).")
  private Path dir;

  @Option(names = "--json", description = "Print one JSON object per run.")
  private boolean json;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  /** One measured job commit. */
  record Commit(String committer, int files, long fileSizeBytes, double seconds, double taskCommitSeconds,
      double jobCommitSeconds, long bytesWrittenToDatanodes) {
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Configuration conf = BenchClusters.config();
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-fs");
        LocalCluster cluster = new LocalCluster(benchDir.path().resolve("cluster"), datanodes, 1, 1, conf);
        AutoCloseable stop = benchDir.stopOnExit(cluster)) {
      cluster.start();
      BenchClusters.awaitPipelines(new HostPort("127.0.0.1", cluster.scm().clientPort()), 1);
      org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
      hadoop.set("ozone.om.address", "127.0.0.1:" + cluster.om().port());
      hadoop.set("ozone.scm.block.client.address", "127.0.0.1:" + cluster.scm().blockPort());
      URI uri = URI.create(TroposFileSystem.SCHEME + "://127.0.0.1:" + cluster.om().port());
      try (FileSystem fs = FileSystem.newInstance(uri, hadoop)) {
        Path clusterDir = benchDir.path().resolve("cluster");
        for (String size : fileSizes) {
          for (int algorithm : new int[] {1, 2}) {
            print(out, commit(fs, hadoop, algorithm, DataSize.parse(size).bytes(), clusterDir));
          }
        }
        long hugeBytes = DataSize.parse(huge).bytes();
        if (hugeBytes > 0) {
          for (long size : new long[] {1024, hugeBytes}) {
            write(fs, new org.apache.hadoop.fs.Path("/bench/lone/f-" + size), size);
          }
          printSingles(out, fs);
        }
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Writes the tasks' outputs (not timed), then commits every task and the job. */
  private Commit commit(FileSystem fs, org.apache.hadoop.conf.Configuration hadoop, int algorithm, long size,
      Path cluster) throws Exception {
    org.apache.hadoop.fs.Path table = fs.makeQualified(new org.apache.hadoop.fs.Path("/bench/warehouse/v"
        + algorithm + "-" + size + "/date=2026-11-21"));
    // One JobConf for the job and all its tasks: a task context given a plain Configuration copies it into a
    // JobConf of its own (hundreds of entries), and 2,126 of them do not fit the default heap.
    JobConf job = new JobConf(hadoop);
    job.setInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, algorithm);
    JobID jobId = new JobID("20261121", algorithm);
    JobContext jobContext = new JobContextImpl(job, jobId);
    FileOutputCommitter jobCommitter = new FileOutputCommitter(table, jobContext);
    jobCommitter.setupJob(jobContext);
    List<TaskAttemptContext> tasks = new ArrayList<>();
    List<FileOutputCommitter> committers = new ArrayList<>();
    for (int t = 0; t < files; t++) {
      TaskAttemptContext task = new TaskAttemptContextImpl(job, new TaskAttemptID(new TaskID(jobId, TaskType.MAP, t),
          0));
      tasks.add(task);
      committers.add(new FileOutputCommitter(table, task));
    }
    ConcurrentOps.run(clock, "bench-fs", writers, files, t -> write(fs, new org.apache.hadoop.fs.Path(
        committers.get((int) t).getWorkPath(), String.format(Locale.ROOT, "part-%05d.parquet", t)), size));
    long before = S3Benchmark.diskBytes(cluster);
    long start = clock.monotonicNanos();
    for (int t = 0; t < files; t++) {
      committers.get(t).commitTask(tasks.get(t));
    }
    long tasksDone = clock.monotonicNanos();
    jobCommitter.commitJob(jobContext);
    long end = clock.monotonicNanos();
    long written = Math.max(0, S3Benchmark.diskBytes(cluster) - before);
    int found = fs.listStatus(table).length;
    if (found != files + 1) {
      throw new IllegalStateException("the committed table holds " + found + " entries, not " + files
          + " files and _SUCCESS");
    }
    return new Commit("v" + algorithm, files, size, (end - start) / 1e9, (tasksDone - start) / 1e9,
        (end - tasksDone) / 1e9, written);
  }

  private static void write(FileSystem fs, org.apache.hadoop.fs.Path path, long size) throws Exception {
    byte[] content = new byte[(int) Math.min(size, 8 * MB)];
    new Random(size).nextBytes(content);
    try (FSDataOutputStream out = fs.create(path)) {
      for (long left = size; left > 0; left -= content.length) {
        out.write(content, 0, (int) Math.min(left, content.length));
      }
    }
  }

  /** Renames the lone files back and forth, taking turns; a size's time is the median of its renames. */
  private void printSingles(PrintWriter out, FileSystem fs) throws Exception {
    long[] sizes = {1024, DataSize.parse(huge).bytes()};
    double[][] seconds = TakingTurns.run(sizes.length, singleRenames, (s, back) -> {
      org.apache.hadoop.fs.Path a = new org.apache.hadoop.fs.Path("/bench/lone/f-" + sizes[s]);
      org.apache.hadoop.fs.Path b = new org.apache.hadoop.fs.Path("/bench/lone/renamed-" + sizes[s]);
      long start = clock.monotonicNanos();
      if (!(back ? fs.rename(b, a) : fs.rename(a, b))) {
        throw new IllegalStateException("rename of the " + sizes[s] + "-byte file failed");
      }
      return (clock.monotonicNanos() - start) / 1e9;
    });
    for (int s = 0; s < sizes.length; s++) {
      double median = seconds[s][singleRenames / 2];
      if (json) {
        out.printf(Locale.ROOT, "{\"op\":\"rename\",\"files\":1,\"fileSizeBytes\":%d,\"seconds\":%.6f,"
            + "\"renames\":%d}%n", sizes[s], median, singleRenames);
      } else {
        out.printf(Locale.ROOT, "rename  1 file of %10d B: %8.3f ms (median of %d)%n", sizes[s], median * 1000,
            singleRenames);
      }
    }
    out.flush();
  }

  private void print(PrintWriter out, Commit c) {
    if (json) {
      out.printf(Locale.ROOT, "{\"op\":\"commit\",\"committer\":\"%s\",\"files\":%d,\"fileSizeBytes\":%d,"
          + "\"seconds\":%.3f,\"taskCommitSeconds\":%.3f,\"jobCommitSeconds\":%.3f,\"perFileMs\":%.3f,"
          + "\"bytesWrittenToDatanodes\":%d}%n", c.committer(), c.files(), c.fileSizeBytes(), c.seconds(),
          c.taskCommitSeconds(), c.jobCommitSeconds(), c.seconds() * 1000 / c.files(), c.bytesWrittenToDatanodes());
    } else {
      out.printf(Locale.ROOT, "commit %s %5d files of %8d B: %7.3f s (tasks %.3f s, job %.3f s), %.2f ms per file,"
          + " bytes written to datanodes %d%n", c.committer(), c.files(), c.fileSizeBytes(), c.seconds(),
          c.taskCommitSeconds(), c.jobCommitSeconds(), c.seconds() * 1000 / c.files(), c.bytesWrittenToDatanodes());
    }
    out.flush();
  }
}
