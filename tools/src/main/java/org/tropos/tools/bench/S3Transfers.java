package org.tropos.tools.bench;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.tropos.common.util.Clock;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * PUT and GET of objects of one size on every S3 service in turn, with the same client, objects and concurrency,
 * each phase timed and its server CPU read; a row per (service, operation, size) and, with other services, a
 * ratio row of each service over every one after it. The services take turns within each phase (see
 * {@link #phase}), so that none always meets a warmer disk cache, a JIT compiler further along or another's
 * background work. Failed requests are counted and reported, never dropped.
 */
final class S3Transfers {
  private static final int MB = 1 << 20;
  /**
   * Slices of a phase per service, at most: a slice of a small phase lasts about a second, so that a burst of
   * background work lasting seconds (a JIT compiler's, a flush to disk) falls on every service alike, not on the
   * one whose slice it met.
   */
  private static final int SLICES = 16;
  /** Requests per concurrent stream in a slice, at least: fewer and a slice is mostly ramp-up and ramp-down. */
  private static final int MIN_REQUESTS_PER_STREAM = 8;
  static final String BUCKET = "bench";

  /** One S3 service and the client that drives it. */
  record Target(S3Side side, S3Client s3) {
  }

  /**
   * A measured phase of one service; {@code serverJitShare} is the part of its server CPU that went to compiling
   * code (a JVM still warming up), -1 when unknown.
   */
  record Phase(String system, String op, long sizeBytes, int concurrency, ConcurrentOps.Result result,
      double serverCpuMsPerOp, double serverJitShare) {
    double mbPerSec() {
      return result.ops() * (double) sizeBytes / MB / result.seconds();
    }
  }

  private final Clock clock;
  private final List<Target> targets;
  private final PrintWriter out;
  private final boolean json;
  private final int getPasses;
  private int phases;
  private long errors;
  private double highestJitShare;
  private int warmUpRounds;

  /** Each GET phase reads every object {@code getPasses} times. */
  S3Transfers(Clock clock, List<Target> targets, PrintWriter out, boolean json, int getPasses) {
    this.clock = clock;
    this.targets = targets;
    this.out = out;
    this.json = json;
    this.getPasses = getPasses;
  }

  /** Failed requests over all phases so far, warm-up included. */
  long errors() {
    return errors;
  }

  /**
   * PUTs then GETs {@code count} objects of {@code size} bytes on every service, reported as warm-up, then lets
   * the servers' JIT compilers work off what that queued, for at most {@code maxDrain} ({@link CompilerBacklog});
   * returns the highest share of a server's CPU that went to its JIT compiler in those phases.
   */
  double warmUp(long size, int count, int concurrency, Duration maxDrain) throws Exception {
    highestJitShare = 0;
    // Every round writes new keys. Overwriting the last round's would leave the replaced objects to be deleted,
    // which a store that deletes in the background (Tropos) does during the measured phases, on their CPU, while
    // one that deletes at once (MinIO) did it in the warm-up, unmeasured.
    compare("warmup-", "warmup" + warmUpRounds++ + "-", size, count, concurrency);
    Duration drained = CompilerBacklog.drain(clock, targets.stream().map(Target::side).toList(), maxDrain);
    if (json) {
      out.printf(Locale.ROOT, "{\"op\":\"warmup-compiler-drain\",\"sizeBytes\":%d,\"seconds\":%.1f}%n", size,
          drained.toMillis() / 1e3);
    } else {
      out.printf(Locale.ROOT, "warm-up: the servers' JIT compilers worked off their backlog in %.1f s%n",
          drained.toMillis() / 1e3);
    }
    out.flush();
    return highestJitShare;
  }

  /** PUTs {@code count} objects of {@code size} bytes on every service, then GETs each of them in every pass. */
  void compare(long size, int count, int concurrency) throws Exception {
    compare("", "", size, count, concurrency);
  }

  private void compare(String opPrefix, String keyPrefix, long size, int count, int concurrency) throws Exception {
    byte[] content = new byte[(int) Math.min(size, 8 * MB)];
    new Random(size).nextBytes(content);
    String key = keyPrefix + "obj-" + size + "-";
    phase(opPrefix + "put", size, count, concurrency, (t, first, n) -> ConcurrentOps.runCountingErrors(clock,
        "bench-s3", concurrency, n, i -> t.s3().putObject(p -> p.bucket(BUCKET).key(key + (first + i)),
            RequestBody.fromContentProvider(() -> S3Benchmark.repeat(content, size), size,
                "application/octet-stream"))));
    // A read is over in half a millisecond of server CPU: one pass of a few thousand lasts a second or two, which a
    // collection or another server's background work can move by a tenth.
    phase(opPrefix + "get", size, count * getPasses, concurrency, (t, first, n) -> ConcurrentOps.runCountingErrors(
        clock, "bench-s3", concurrency, n, i -> read(t.s3(), key + (first + i) % count, size)));
  }

  private static void read(S3Client s3, String key, long size) throws Exception {
    long n = s3.getObject(g -> g.bucket(BUCKET).key(key), ResponseTransformer.toInputStream())
        .transferTo(OutputStream.nullOutputStream());
    if (n != size) {
      throw new IllegalStateException("GET " + key + " returned " + n + " bytes, not " + size);
    }
  }

  /** Runs one operation on a service, on objects {@code first} to {@code first + n - 1}. */
  @FunctionalInterface
  private interface Run {
    ConcurrentOps.Result on(Target target, long first, long n) throws Exception;
  }

  /** One service's slices of a phase, added up. */
  private static final class Tally {
    private final List<ConcurrentOps.Result> slices = new ArrayList<>();
    private long cpuNanos;
    private long jitNanos;
    private boolean cpuKnown = true;

    void add(Target t, Run run, long first, long n) throws Exception {
      long cpuBefore = t.side().serverCpuNanos();
      long jitBefore = t.side().serverCompilerNanos();
      slices.add(run.on(t, first, n));
      cpuKnown &= cpuBefore >= 0;
      cpuNanos += t.side().serverCpuNanos() - cpuBefore;
      // Compiler threads that end take their time along: never below 0.
      jitNanos += Math.max(0, t.side().serverCompilerNanos() - jitBefore);
    }

    Phase phase(Target t, String op, long size, int concurrency) {
      ConcurrentOps.Result r = ConcurrentOps.Result.combined(slices);
      double cpuMsPerOp = !cpuKnown || r.ops() == 0 ? -1 : cpuNanos / 1e6 / r.ops();
      double jitShare = !cpuKnown || cpuNanos <= 0 ? -1 : Math.min(1, (double) jitNanos / cpuNanos);
      return new Phase(t.side().name(), op, size, concurrency, r, cpuMsPerOp, jitShare);
    }
  }

  /**
   * Runs an operation on every service in slices that take turns (ABC CBA ABC CBA), so that whatever the time
   * brings (a server's compactions and deletions, the JIT, the page cache) falls on all alike. Run one after the
   * other, the service that opened a PUT phase served a third fewer PUTs than when it ran last.
   */
  private void phase(String op, long size, int count, int concurrency, Run run) throws Exception {
    int slices = slices(count, concurrency);
    Map<Target, Tally> tallies = new LinkedHashMap<>();
    targets.forEach(t -> tallies.put(t, new Tally()));
    for (int s = 0; s < slices; s++) {
      long first = (long) count * s / slices;
      long n = (long) count * (s + 1) / slices - first;
      // Reversed every other slice; a one-slice phase reverses the order of the one before it of the same round
      // and opens the next round as that one closed: PUT AB, GET BA, PUT BA, GET AB.
      List<Target> order = new ArrayList<>(targets);
      if ((phases / 2 + phases + s) % 2 == 1) {
        Collections.reverse(order);
      }
      for (Target t : order) {
        tallies.get(t).add(t, run, first, n);
      }
    }
    phases++;
    List<Phase> measured = new ArrayList<>();
    for (Target t : targets) {
      Phase p = tallies.get(t).phase(t, op, size, concurrency);
      highestJitShare = Math.max(highestJitShare, p.serverJitShare());
      print(p);
      measured.add(p);
      errors += p.result().errors();
    }
    for (int i = 0; i < measured.size(); i++) {
      for (int j = i + 1; j < measured.size(); j++) {
        printRatio(measured.get(i), measured.get(j));
      }
    }
  }

  /**
   * How many slices a phase of {@code count} requests at {@code concurrency} takes turns in: enough requests per
   * stream in each for its start to weigh little, and never fewer than two where each still keeps every stream
   * busy. A phase of one slice lets one side go first and the next pay its leftovers: run one 1 GiB PUT at a time,
   * the side second wrote while the disk still took the first side's gigabytes, three runs in a row.
   */
  static int slices(int count, int concurrency) {
    int slices = Math.max(1, Math.min(SLICES, count / (concurrency * MIN_REQUESTS_PER_STREAM)));
    return slices == 1 && count >= 2 * concurrency ? 2 : slices;
  }

  private void print(Phase p) {
    ConcurrentOps.Result r = p.result();
    if (json) {
      out.printf(Locale.ROOT, "{\"system\":\"%s\",\"op\":\"%s\",\"sizeBytes\":%d,\"concurrency\":%d,\"requests\":%d,"
          + "\"opsPerSec\":%.1f,\"mbPerSec\":%.1f,\"p50Ms\":%.2f,\"p99Ms\":%.2f,\"maxMs\":%.2f,"
          + "\"serverCpuMsPerOp\":%s,\"serverJitPercent\":%s,\"errors\":%d%s}%n", p.system(), p.op(),
          p.sizeBytes(), p.concurrency(), r.ops(), r.opsPerSec(), p.mbPerSec(), r.p50Ms(), r.p99Ms(), r.maxMs(),
          number(p.serverCpuMsPerOp()), percent(p.serverJitShare()), r.errors(),
          r.errors() == 0 ? "" : ",\"firstError\":\"" + escape(r.firstError()) + "\"");
    } else {
      out.printf(Locale.ROOT, "%-8s %-10s %10d B x%-5d c%-3d %8.1f ops/s %8.1f MB/s  p50 %8.2f ms  p99 %8.2f ms"
          + "  server CPU %s ms/op (JIT %s %%)  errors %d%n", p.system(), p.op(), p.sizeBytes(), r.ops(),
          p.concurrency(), r.opsPerSec(), p.mbPerSec(), r.p50Ms(), r.p99Ms(), number(p.serverCpuMsPerOp()),
          percent(p.serverJitShare()), r.errors());
      if (r.errors() > 0) {
        out.println("         first error: " + r.firstError());
      }
    }
    out.flush();
  }

  /** Service {@code a}'s figures over {@code b}'s. */
  private void printRatio(Phase a, Phase b) {
    ConcurrentOps.Result ra = a.result();
    ConcurrentOps.Result rb = b.result();
    String system = a.system() + "/" + b.system();
    String cpu = a.serverCpuMsPerOp() < 0 || b.serverCpuMsPerOp() < 0 ? number(-1)
        : ratio(a.serverCpuMsPerOp(), b.serverCpuMsPerOp());
    if (json) {
      out.printf(Locale.ROOT, "{\"system\":\"%s\",\"op\":\"%s\",\"sizeBytes\":%d,\"concurrency\":%d,"
          + "\"opsPerSec\":%s,\"mbPerSec\":%s,\"p50Ms\":%s,\"p99Ms\":%s,\"serverCpuMsPerOp\":%s,\"errors\":%d}%n",
          system, a.op(), a.sizeBytes(), a.concurrency(), ratio(ra.opsPerSec(), rb.opsPerSec()),
          ratio(a.mbPerSec(), b.mbPerSec()), ratio(ra.p50Ms(), rb.p50Ms()), ratio(ra.p99Ms(), rb.p99Ms()),
          cpu, ra.errors() + rb.errors());
    } else {
      out.printf(Locale.ROOT, "%-19s %10d B: ops/s %sx, p99 %sx, server CPU per op %sx%n", system + " " + a.op(),
          a.sizeBytes(), ratio(ra.opsPerSec(), rb.opsPerSec()), ratio(ra.p99Ms(), rb.p99Ms()), cpu);
    }
    out.flush();
  }

  private static String ratio(double a, double b) {
    return number(b == 0 ? Double.NaN : a / b);
  }

  /** A figure, or null when unknown (a server whose process is not on this machine). */
  private static String number(double value) {
    return value < 0 || Double.isNaN(value) ? "null" : String.format(Locale.ROOT, "%.3f", value);
  }

  private static String percent(double share) {
    return share < 0 ? "null" : String.format(Locale.ROOT, "%.1f", 100 * share);
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
  }
}
