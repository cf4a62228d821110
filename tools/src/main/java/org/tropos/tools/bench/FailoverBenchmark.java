package org.tropos.tools.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * OM HA under a leader crash: three OMs of one service, clients creating files at a steady rate through the
 * service (they follow the leader), the leader stopped midway. Reports the longest time with no completed write,
 * the writes acknowledged, failed to the caller and lost (acknowledged, then not found on the new leader); and,
 * in the same run, in-process creates/s of the HA service against a single OM (bench om's workload).
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
    description = {"OM HA: steady creates through a 3-OM service while its leader is stopped; the longest gap",
        "with no completed create, creates acknowledged / failed / lost, and HA vs single-OM creates/s."})
public final class FailoverBenchmark implements Callable<Integer> {
  private static final int OMS = 3;
  /** The OMs' longest election timeout: the bar is twice this. */
  private static final long ELECTION_TIMEOUT_MS = RaftMember.ELECTION_TIMEOUT_MAX.toMillis();

  @Option(names = "--rate", defaultValue = "200", description = "Creates per second, all writers (default 200).")
  private int rate;

  @Option(names = "--writers", defaultValue = "4", description = "Writer threads (default 4).")
  private int writers;

  @Option(names = "--seconds", defaultValue = "20", description = "Length of the steady phase (default 20).")
  private int seconds;

  @Option(names = "--throughput-files", defaultValue = "20000",
      description = "Creates of the HA vs single-OM throughput runs (default 20000).")
  private int throughputFiles;

  @Option(names = "--threads", defaultValue = "8", description = "Threads of the throughput runs (default 8).")
  private int threads;

  @Option(names = "--json", description = "Print one JSON object.")
  private boolean json;

  @Option(names = "--dir", description = "Where the databases go (default: a temporary directory).")
  private Path dir;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  /** What the steady phase saw. */
  record Steady(long acknowledged, long failed, long lost, double maxGapMs, double stoppedAtS, List<String> errors) {
  }

  @Override
  public Integer call() throws Exception {
    Path root = BenchDirs.open(dir, "tropos-bench-failover");
    PrintWriter out = spec.commandLine().getOut();
    try {
      Steady steady = steady(root.resolve("failover"));
      double single = throughput(root.resolve("single"), 1);
      double ha = throughput(root.resolve("ha"), OMS);
      out.print(json ? json(steady, ha, single) : text(steady, ha, single));
      out.flush();
      return 0;
    } finally {
      BenchDirs.close(dir, root);
    }
  }

  /** The steady phase: creates at {@link #rate} per second, the leader stopped halfway. */
  private Steady steady(Path at) throws Exception {
    try (OmTarget om = OmTarget.start(at, true, OMS, List.of("dir"))) {
      Queue<Long> completions = new ConcurrentLinkedQueue<>();
      Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
      Queue<String> errors = new ConcurrentLinkedQueue<>();
      AtomicBoolean running = new AtomicBoolean(true);
      ExecutorService pool = Threads.boundedPool("bench-failover", writers, writers);
      long start = clock.monotonicNanos();
      long intervalNanos = 1_000_000_000L * writers / rate;
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        done.add(pool.submit(() -> {
          for (long n = 0; running.get(); n++) {
            long due = start + n * intervalNanos + writer * intervalNanos / writers;
            long wait = due - clock.monotonicNanos();
            if (wait > 0) {
              clock.pause(Duration.ofNanos(wait));
            }
            String path = "dir/f-" + writer + "-" + n;
            try {
              om.create(path);
              acknowledged.add(path);
              completions.add(clock.monotonicNanos());
            } catch (OmException e) {
              errors.add(path + ": " + e);
            }
          }
          return null;
        }));
      }
      clock.pause(Duration.ofSeconds(seconds).dividedBy(2));
      double stoppedAt = (clock.monotonicNanos() - start) / 1e9;
      om.stopServing();
      clock.pause(Duration.ofSeconds(seconds).dividedBy(2));
      running.set(false);
      for (Future<?> f : done) {
        f.get();
      }
      Threads.shutdown(pool, Duration.ofSeconds(10));
      om.awaitServing();
      long lost = 0;
      for (String path : acknowledged) {
        if (!om.exists(path)) {
          lost++;
        }
      }
      return new Steady(acknowledged.size(), errors.size(), lost, maxGapMs(new ArrayList<>(completions)),
          stoppedAt, errors.stream().limit(5).toList());
    }
  }

  private static double maxGapMs(List<Long> completions) {
    completions.sort(null);
    long max = 0;
    for (int i = 1; i < completions.size(); i++) {
      max = Math.max(max, completions.get(i) - completions.get(i - 1));
    }
    return max / 1e6;
  }

  /** In-process creates/s of {@code count} OMs (the serving one's request path), after a warm-up. */
  private double throughput(Path at, int count) throws Exception {
    try (OmTarget om = OmTarget.start(at, false, count, List.of("warm", "dir"))) {
      ConcurrentOps.run(clock, "bench-failover-warm", threads, throughputFiles / 2, i -> om.create("warm/f" + i));
      return ConcurrentOps.run(clock, "bench-failover", threads, throughputFiles, i -> om.create("dir/f" + i))
          .opsPerSec();
    }
  }

  private String text(Steady s, double ha, double single) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "steady creates at %d/s through %d OMs, leader stopped at %.1f s:%n",
        rate, OMS, s.stoppedAtS()));
    out.append(String.format(Locale.ROOT, "  acknowledged %d   failed %d   lost %d   longest gap %.0f ms"
        + " (bar: %d ms, twice the election timeout)%n", s.acknowledged(), s.failed(), s.lost(), s.maxGapMs(),
        2 * ELECTION_TIMEOUT_MS));
    s.errors().forEach(e -> out.append("  error: ").append(e).append('\n'));
    out.append(String.format(Locale.ROOT, "creates/s in-process (%d threads, %d files): HA %.0f   single OM %.0f"
        + "   ratio %.2f%n", threads, throughputFiles, ha, single, ha / single));
    return out.toString();
  }

  private String json(Steady s, double ha, double single) {
    return String.format(Locale.ROOT, "{\"oms\": %d, \"rate\": %d, \"seconds\": %d, \"acknowledged\": %d,"
        + " \"failed\": %d, \"lost\": %d, \"maxGapMs\": %.1f, \"electionTimeoutMs\": %d, \"haOpsPerSec\": %.1f,"
        + " \"singleOpsPerSec\": %.1f, \"ratio\": %.3f}%n", OMS, rate, seconds, s.acknowledged(), s.failed(),
        s.lost(), s.maxGapMs(), ELECTION_TIMEOUT_MS, ha, single, ha / single);
  }
}
