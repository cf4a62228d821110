package org.tropos.tools.bench;

import java.io.IOException;
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
 * OM and SCM HA under a leader crash. Writes at a steady rate through a service of three, its leader stopped
 * midway: empty files through an OM service (in-process, no SCM), then small keys through a local cluster whose SCM
 * leader is stopped. Reports for each the longest time with no completed write, the writes acknowledged, failed to
 * the caller and lost (acknowledged, then not found afterwards); and, in the same run, creates/s of the OM HA
 * service against a single OM, next to the HDFS NameNode's HA (QJM) against a single NameNode, measured alike,
 * and the writes/s of a Ratis group alone, group-committed as the OM's ({@link RaftFloor}): the floor under OM HA.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
    description = {"OM and SCM HA: steady writes while the OM leader, then the SCM leader, is stopped; the longest",
        "gap with no completed write, writes acknowledged / failed / lost; HA vs single creates/s of the OM and of",
        "the HDFS NameNode (HA on three JournalNodes) and the writes/s of Ratis alone in the same run."})
public final class FailoverBenchmark implements Callable<Integer> {
  private static final int OMS = 3;
  /** The OMs' longest election timeout: the bar is twice this. */
  private static final long ELECTION_TIMEOUT_MS = RaftMember.ELECTION_TIMEOUT_MAX.toMillis();

  @Option(names = "--rate", defaultValue = "200", description = "Creates per second, all writers (default 200).")
  private int rate;

  @Option(names = "--scm-rate", defaultValue = "40",
      description = "Keys per second written while the SCM leader is stopped, all writers (default 40).")
  private int scmRate;

  @Option(names = "--writers", defaultValue = "4", description = "Writer threads (default 4).")
  private int writers;

  @Option(names = "--seconds", defaultValue = "20", description = "Length of the steady phase (default 20).")
  private int seconds;

  @Option(names = "--warmup-seconds", defaultValue = "20",
      description = "Seconds of creates at least before each throughput run is measured, for the JIT (default 20).")
  private int warmupSeconds;

  @Option(names = "--warmup-max-seconds", defaultValue = "90",
      description = "Longest warm-up: after --warmup-seconds it goes on in 5 s rounds while the JIT compiler still"
          + " works (more than 2 % of a round), up to this (default 90).")
  private int warmupMaxSeconds;

  @Option(names = "--measure-seconds", defaultValue = "15",
      description = "Seconds each throughput run is measured: OM and NameNode, HA and single (default 15).")
  private int measureSeconds;

  @Option(names = "--threads", defaultValue = "8", description = "Threads of the throughput runs (default 8).")
  private int threads;

  @Option(names = "--json", description = "Print one JSON object.")
  private boolean json;

  @Option(names = "--dir", description = "Where the databases go (default: a temporary directory).")
  private Path dir;

  @Spec
  private CommandSpec spec;

  private final Clock clock = SystemClock.INSTANCE;

  /** Creates a file at an absolute path. */
  @FunctionalInterface
  private interface Create {
    void run(String path) throws Exception;
  }

  /** Creates/s of each system, measured alike, and the writes/s of Ratis alone ({@link RaftFloor}). */
  record Throughput(double single, double ha, double nameNode, double nameNodeHa, double raftFloor) {
  }

  /** What the steady phase saw. */
  record Steady(long acknowledged, long failed, long lost, double maxGapMs, double stoppedAtS, List<String> errors) {
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (BenchDir benchDir = BenchDir.open(dir, "tropos-bench-failover")) {
      Path root = benchDir.path();
      Steady om;
      try (Target target = omService(OmTarget.start(root.resolve("failover"), true, OMS, List.of("dir")))) {
        om = steady(target, rate);
      }
      Steady scm;
      try (Target target = ScmFailoverTarget.start(root.resolve("scm-failover"))) {
        scm = steady(target, scmRate);
      }
      Throughput t = new Throughput(omCreates(root.resolve("single"), 1), omCreates(root.resolve("ha"), OMS),
          nameNodeCreates(root.resolve("nn"), false), nameNodeCreates(root.resolve("nn-ha"), true),
          raftCommits(root.resolve("raft")));
      out.print(json ? json(om, scm, t) : text(om, scm, t));
      out.flush();
      return 0;
    }
  }

  /** A service whose leader the steady phase stops: writes go through it and must all be found afterwards. */
  interface Target extends AutoCloseable {
    /** Writes something named {@code name}; returns once it is acknowledged. */
    void write(String name) throws Exception;

    /** Stops the service's leader as a crash would. */
    void stopLeader() throws Exception;

    /** Waits until a leader serves again. */
    void awaitServing() throws Exception;

    /** Whether what was written as {@code name} is there, as written. */
    boolean holds(String name) throws Exception;
  }

  /** The OM service's side: empty files created (OpenKey + CommitKey over gRPC, no block), the OM leader stopped. */
  private static Target omService(OmTarget om) {
    return new Target() {
      @Override
      public void write(String name) throws OmException {
        om.create("dir/" + name);
      }

      @Override
      public void stopLeader() {
        om.stopServing();
      }

      @Override
      public void awaitServing() throws IOException {
        om.awaitServing();
      }

      @Override
      public boolean holds(String name) throws OmException {
        return om.exists("dir/" + name);
      }

      @Override
      public void close() {
        om.close();
      }
    };
  }

  /** The steady phase: writes at {@code perSecond}, the leader stopped halfway. */
  private Steady steady(Target target, int perSecond) throws Exception {
    Queue<Long> completions = new ConcurrentLinkedQueue<>();
    Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
    Queue<String> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean running = new AtomicBoolean(true);
    ExecutorService pool = Threads.boundedPool("bench-failover", writers, writers);
    long start = clock.monotonicNanos();
    long intervalNanos = 1_000_000_000L * writers / perSecond;
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
          String name = "f-" + writer + "-" + n;
          try {
            target.write(name);
            acknowledged.add(name);
            completions.add(clock.monotonicNanos());
          } catch (Exception e) {
            errors.add(name + ": " + e);
          }
        }
        return null;
      }));
    }
    clock.pause(Duration.ofSeconds(seconds).dividedBy(2));
    double stoppedAt = (clock.monotonicNanos() - start) / 1e9;
    target.stopLeader();
    clock.pause(Duration.ofSeconds(seconds).dividedBy(2));
    running.set(false);
    for (Future<?> f : done) {
      f.get();
    }
    Threads.shutdown(pool, Duration.ofSeconds(10));
    target.awaitServing();
    long lost = 0;
    for (String name : acknowledged) {
      if (!target.holds(name)) {
        lost++;
      }
    }
    return new Steady(acknowledged.size(), errors.size(), lost, maxGapMs(new ArrayList<>(completions)),
        stoppedAt, errors.stream().limit(5).toList());
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
  private double omCreates(Path at, int count) throws Exception {
    try (OmTarget om = OmTarget.start(at, false, count, List.of("warm", "dir"))) {
      return measure(path -> om.create(path.substring(1)));
    }
  }

  /** The same of the NameNode: alone, or the active of an HA pair on three JournalNodes ({@link NameNodePeer}). */
  private double nameNodeCreates(Path at, boolean ha) throws Exception {
    try (NameNodePeer nn = ha ? NameNodePeer.ha(at) : NameNodePeer.single(at)) {
      return measure(nn::create);
    }
  }

  /** Writes group-committed through a Raft group whose state machine does nothing ({@link RaftFloor}). */
  private double raftCommits(Path at) throws Exception {
    try (RaftFloor raft = RaftFloor.start(at)) {
      return measure(path -> raft.commit());
    }
  }

  /**
   * Creates of files {@code /warm/f<i>} until the JIT compiler has settled ({@link JitWarmup}), then of
   * {@code /dir/f<i>}, measured; creates/s.
   */
  private double measure(Create create) throws Exception {
    JitWarmup.run(Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(Math.max(warmupSeconds, warmupMaxSeconds)),
        (first, round) -> ConcurrentOps.runFor(clock, "bench-failover-warm", threads, first, round,
            i -> create.run("/warm/f" + i)).ops());
    return ConcurrentOps.runFor(clock, "bench-failover", threads, 0, Duration.ofSeconds(measureSeconds),
        i -> create.run("/dir/f" + i)).opsPerSec();
  }

  private String text(Steady om, Steady scm, Throughput t) {
    StringBuilder out = new StringBuilder();
    steadyText(out, om, String.format(Locale.ROOT, "empty files created at %d/s through %d OMs, the OM leader", rate,
        OMS));
    steadyText(out, scm, String.format(Locale.ROOT, "4 KB keys written at %d/s (3 SCMs, 3 OMs, 3 datanodes), the SCM"
        + " leader", scmRate));
    out.append(String.format(Locale.ROOT, "creates/s in-process, %d threads, %d s after %d-%d s of warm-up (until"
        + " the JIT compiler settles):%n", threads, measureSeconds, warmupSeconds, Math.max(warmupSeconds,
        warmupMaxSeconds)));
    out.append(String.format(Locale.ROOT, "  OM:       HA %.0f   single %.0f   ratio %.2f%n", t.ha(), t.single(),
        t.ha() / t.single()));
    out.append(String.format(Locale.ROOT, "  NameNode: HA (QJM) %.0f   single %.0f   ratio %.2f%n", t.nameNodeHa(),
        t.nameNode(), t.nameNodeHa() / t.nameNode()));
    out.append(String.format(Locale.ROOT, "  OM HA / NameNode HA %.2f%n", t.ha() / t.nameNodeHa()));
    out.append(String.format(Locale.ROOT, "  Ratis alone (3 members, a state machine that does nothing, writes of %d"
        + " bytes group-committed as the OM's): %.0f writes/s, %.2f of the single OM; OM HA creates / Ratis writes"
        + " %.2f%n", RaftFloor.WRITE_BYTES, t.raftFloor(), t.raftFloor() / t.single(), t.ha() / t.raftFloor()));
    return out.toString();
  }

  private static void steadyText(StringBuilder out, Steady s, String what) {
    out.append(String.format(Locale.ROOT, "%s stopped at %.1f s:%n", what, s.stoppedAtS()));
    out.append(String.format(Locale.ROOT, "  acknowledged %d   failed %d   lost %d   longest gap %.0f ms"
        + " (bar: %d ms, twice the election timeout)%n", s.acknowledged(), s.failed(), s.lost(), s.maxGapMs(),
        2 * ELECTION_TIMEOUT_MS));
    s.errors().forEach(e -> out.append("  error: ").append(e).append('\n'));
  }

  /** Totals over both leader kills at the top (the worst gap), then each kill and the throughput. */
  private String json(Steady om, Steady scm, Throughput t) {
    return String.format(Locale.ROOT, "{\"acknowledged\": %d, \"failed\": %d, \"lost\": %d, \"maxGapMs\": %.1f,"
        + " \"electionTimeoutMs\": %d, \"omLeaderKill\": %s, \"scmLeaderKill\": %s, \"threads\": %d,"
        + " \"haOpsPerSec\": %.1f, \"singleOpsPerSec\": %.1f, \"ratio\": %.3f, \"nameNodeHaOpsPerSec\": %.1f,"
        + " \"nameNodeOpsPerSec\": %.1f, \"nameNodeRatio\": %.3f, \"raftFloorWritesPerSec\": %.1f}%n",
        om.acknowledged() + scm.acknowledged(),
        om.failed() + scm.failed(), om.lost() + scm.lost(), Math.max(om.maxGapMs(), scm.maxGapMs()),
        ELECTION_TIMEOUT_MS, steadyJson(om, rate), steadyJson(scm, scmRate), threads, t.ha(), t.single(),
        t.ha() / t.single(), t.nameNodeHa(), t.nameNode(), t.nameNodeHa() / t.nameNode(), t.raftFloor());
  }

  private String steadyJson(Steady s, int perSecond) {
    return String.format(Locale.ROOT, "{\"rate\": %d, \"seconds\": %d, \"acknowledged\": %d, \"failed\": %d,"
        + " \"lost\": %d, \"maxGapMs\": %.1f}", perSecond, seconds, s.acknowledged(), s.failed(), s.lost(),
        s.maxGapMs());
  }
}
