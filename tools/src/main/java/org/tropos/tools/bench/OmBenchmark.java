package org.tropos.tools.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.tools.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tropos bench om}: the OCC seed's experiments on this machine, against the HDFS NameNode in the same run
 * (Hadoop's NNThroughputBenchmark, which drives the NameNode in-process): (a) N concurrent file creates in one
 * directory; (b) reads and creates mixed in one directory; (c) 10,000 creates spread over 1 to 10,000 names.
 * Tropos is measured in-process (the OM's request path without gRPC, like the NameNode's) and over gRPC.
 */
@Command(name = "om", mixinStandardHelpOptions = true,
    description = {"The OM's namespace under optimistic concurrency vs the HDFS NameNode (NNThroughputBenchmark),",
        "in one run: creates in one directory, mixed reads and creates, the conflict table, and the rename of a",
        "directory of the most files against an empty one."})
public final class OmBenchmark implements Callable<Integer> {
  private static final int PREFILLED = 1000;
  private static final int CONFLICT_ROUNDS = 3;
  private static final int RENAMES = 21;
  /** Creates run once on each system before measuring, so neither is measured while its code is being compiled. */
  private static final int WARM_UP_FILES = 10_000;

  @Option(names = "--files", split = ",", defaultValue = "1000,10000,100000",
      description = "File counts of experiments (a) and (b) (default 1000,10000,100000).")
  private List<Integer> files;

  @Option(names = "--threads", defaultValue = "8", description = "Client threads (default 8).")
  private int threads;

  @Option(names = "--conflict-files", defaultValue = "10000", description = "Creates per row of (c).")
  private int conflictFiles;

  @Option(names = "--names", split = ",", defaultValue = "1,10,100,1000,10000",
      description = "Distinct names of (c)'s rows (default 1,10,100,1000,10000).")
  private List<Integer> names;

  @Option(names = "--no-namenode", description = "Skip the NameNode (Tropos figures only).")
  private boolean noNameNode;

  @Option(names = "--no-grpc", description = "Skip Tropos over gRPC.")
  private boolean noGrpc;

  @Option(names = "--json", description = "Print one JSON object per experiment.")
  private boolean json;

  @Option(names = "--dir", description = "Where the databases go (default: a temporary directory).")
  private Path dir;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;
  private int run;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-om")) {
      Path root = benchDir.path();
      if (!json) {
        out.printf("%-8s %8s %7s %14s %14s %14s %8s %9s %9s%n", "exp", "files", "threads", "tropos ops/s",
            "grpc ops/s", "namenode ops/s", "ratio", "p50 ms", "p99 ms");
      }
      int warmUp = Math.min(WARM_UP_FILES, files.stream().mapToInt(Integer::intValue).max().orElse(0));
      tropos(root, false, warmUp, this::creates);
      if (!noNameNode) {
        NameNodeBaseline.creates(root.resolve("nn-" + run++), threads, warmUp);
      }
      for (int n : files) {
        double nn = noNameNode ? Double.NaN : NameNodeBaseline.creates(root.resolve("nn-" + run++), threads, n);
        report(out, "create", n, tropos(root, false, n, this::creates),
            noGrpc ? null : tropos(root, true, n, this::creates), nn);
      }
      for (int n : files) {
        double nn = noNameNode ? Double.NaN
            : NameNodeBaseline.mixed(clock, root.resolve("nn-" + run++), threads, n, PREFILLED);
        report(out, "mixed", n, tropos(root, false, n, this::mixed), noGrpc ? null : tropos(root, true, n, this::mixed),
            nn);
      }
      conflicts(root, out);
      renames(root, out);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** One measured workload on an OM. */
  @FunctionalInterface
  private interface Workload {
    ConcurrentOps.Result run(OmTarget om, int n) throws Exception;
  }

  private ConcurrentOps.Result tropos(Path root, boolean grpc, int n, Workload workload) throws Exception {
    try (OmTarget om = OmTarget.start(root.resolve("om-" + run++), grpc, List.of("dir"))) {
      return workload.run(om, n);
    }
  }

  /** (a): n files created in one directory. */
  private ConcurrentOps.Result creates(OmTarget om, int n) throws Exception {
    return ConcurrentOps.run(clock, "bench-om", threads, n, i -> om.create("dir/f" + i));
  }

  /** (b): n operations in one directory, every other one a create, the rest reads of existing files. */
  private ConcurrentOps.Result mixed(OmTarget om, int n) throws Exception {
    for (int j = 0; j < PREFILLED; j++) {
      om.create("dir/p" + j);
    }
    return ConcurrentOps.run(clock, "bench-om", threads, n, i -> {
      if (i % 2 == 0) {
        om.create("dir/m" + i);
      } else {
        om.stat("dir/p" + i % PREFILLED);
      }
    });
  }

  /**
   * (c): the same number of creates spread over fewer and fewer names, in-process. Each row is measured
   * {@link #CONFLICT_ROUNDS} times, the rows taking turns so that drift of the disk's speed during the run hits
   * them alike, and the median run is reported.
   */
  private void conflicts(Path root, PrintWriter out) throws Exception {
    List<Integer> order = names.stream().sorted((a, b) -> b - a).toList();
    Map<Integer, List<ConflictRun>> runs = new HashMap<>();
    for (int round = 0; round < CONFLICT_ROUNDS; round++) {
      for (int k : order) {
        runs.computeIfAbsent(k, x -> new ArrayList<>()).add(conflictRun(root, k));
      }
    }
    double base = Double.NaN;
    for (int k : order) {
      List<ConflictRun> sorted = runs.get(k).stream()
          .sorted(Comparator.comparingDouble(c -> c.result().opsPerSec())).toList();
      ConflictRun median = sorted.get(sorted.size() / 2);
      ConcurrentOps.Result r = median.result();
      if (Double.isNaN(base)) {
        base = r.opsPerSec();
      }
      double slowdown = base / r.opsPerSec() - 1;
      if (json) {
        out.printf(Locale.ROOT, "{\"experiment\":\"conflicts\",\"files\":%d,\"names\":%d,\"threads\":%d,"
            + "\"troposOpsPerSec\":%.1f,\"p50Ms\":%.3f,\"p99Ms\":%.3f,\"conflictShare\":%.4f,\"slowdown\":%.4f}%n",
            conflictFiles, k, threads, r.opsPerSec(), r.p50Ms(), r.p99Ms(), median.conflictShare(), slowdown);
      } else {
        out.printf(Locale.ROOT, "conflicts: %d creates over %6d names: %9.1f ops/s  p50 %.3f ms  p99 %.3f ms"
            + "  conflicts/op %.4f  slowdown vs %d names %+.1f%%  (median of %d)%n", conflictFiles, k,
            r.opsPerSec(), r.p50Ms(), r.p99Ms(), median.conflictShare(), order.get(0), slowdown * 100,
            CONFLICT_ROUNDS);
      }
      out.flush();
    }
  }

  private record ConflictRun(ConcurrentOps.Result result, double conflictShare) {
  }

  private ConflictRun conflictRun(Path root, int names) throws Exception {
    try (OmTarget om = OmTarget.start(root.resolve("om-" + run++), false, List.of("dir"))) {
      long before = om.conflicts();
      ConcurrentOps.Result r = ConcurrentOps.run(clock, "bench-om", threads, conflictFiles,
          i -> om.create("dir/c" + i % names));
      return new ConflictRun(r, (om.conflicts() - before) / (double) conflictFiles);
    }
  }

  /** A directory of the most files renamed back and forth, against an empty one: one row either way. */
  private void renames(Path root, PrintWriter out) throws Exception {
    int n = files.stream().mapToInt(Integer::intValue).max().orElse(0);
    try (OmTarget om = OmTarget.start(root.resolve("om-" + run++), false, List.of("full", "empty", "to"))) {
      ConcurrentOps.run(clock, "bench-om", threads, n, i -> om.create("full/f" + i));
      double full = medianRenameMs(om, "full");
      double empty = medianRenameMs(om, "empty");
      if (json) {
        out.printf(Locale.ROOT, "{\"experiment\":\"rename\",\"files\":%d,\"fullDirRenameMs\":%.3f,"
            + "\"emptyDirRenameMs\":%.3f,\"ratio\":%.3f}%n", n, full, empty, full / empty);
      } else {
        out.printf(Locale.ROOT, "rename: a directory of %d files %.3f ms, an empty one %.3f ms (%.2fx), median of"
            + " %d renames each%n", n, full, empty, full / empty, RENAMES);
      }
      out.flush();
    }
  }

  private double medianRenameMs(OmTarget om, String dir) throws Exception {
    List<Double> times = new java.util.ArrayList<>();
    for (int i = 0; i < RENAMES; i++) {
      String from = i % 2 == 0 ? dir : "to/" + dir;
      String to = i % 2 == 0 ? "to/" + dir : dir;
      long t0 = clock.monotonicNanos();
      om.rename(from, to);
      times.add((clock.monotonicNanos() - t0) / 1e6);
    }
    times.sort(null);
    return times.get(times.size() / 2);
  }

  private void report(PrintWriter out, String experiment, int n, ConcurrentOps.Result tropos,
      ConcurrentOps.Result grpc, double nn) {
    double grpcOps = grpc == null ? Double.NaN : grpc.opsPerSec();
    if (json) {
      out.printf(Locale.ROOT, "{\"experiment\":\"%s\",\"files\":%d,\"threads\":%d,\"troposOpsPerSec\":%.1f,"
          + "\"troposGrpcOpsPerSec\":%s,\"namenodeOpsPerSec\":%s,\"ratio\":%s,\"p50Ms\":%.3f,\"p99Ms\":%.3f}%n",
          experiment, n, threads, tropos.opsPerSec(), number(grpcOps), number(nn), number(tropos.opsPerSec() / nn),
          tropos.p50Ms(), tropos.p99Ms());
    } else {
      out.printf(Locale.ROOT, "%-8s %8d %7d %14.1f %14.1f %14.1f %7.2fx %9.3f %9.3f%n", experiment, n, threads,
          tropos.opsPerSec(), grpcOps, nn, tropos.opsPerSec() / nn, tropos.p50Ms(), tropos.p99Ms());
    }
    out.flush();
  }

  private static String number(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
  }
}
