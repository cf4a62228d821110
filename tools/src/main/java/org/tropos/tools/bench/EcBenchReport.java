package org.tropos.tools.bench;

import java.util.Locale;
import java.util.StringJoiner;

/** How {@code tropos bench ec} prints what it measured: a table for people, one JSON object for scripts. */
final class EcBenchReport {
  private EcBenchReport() {
  }

  static String text(EcBenchmark.Result r) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%-14s %10s %10s %10s %14s%n", "replication",
        "MB", "PUT MB/s", "GET MB/s", "disk per byte"));
    for (EcBenchmark.Transfer t : r.transfers()) {
      out.append(String.format(Locale.ROOT, "%-14s %10.1f %10.1f %10.1f %14.3f%n", t.replication(), t.bytes() / 1e6,
          t.putMBps(), t.getMBps(), t.storedPerByte()));
    }
    for (EcBenchmark.DegradedGet d : r.degraded()) {
      out.append(String.format(Locale.ROOT, "%s GET with %d data index(es) gone: %.1f MB/s (%.2f of healthy)%n",
          d.replication(), d.gone(), d.getMBps(), d.getMBps() / d.healthyMBps()));
    }
    out.append(rebuildLine("rebuild", r.rebuild()));
    r.hdfsRebuild().ifPresent(peer -> out.append(rebuildLine("HDFS rebuild (same files, pure Java coder)", peer)));
    out.append(String.format(Locale.ROOT, "%d of %d keys lost%n", r.lostKeys(), r.keys()));
    return out.toString();
  }

  private static String rebuildLine(String what, EcRebuildPhase.Rebuild b) {
    return String.format(Locale.ROOT, "%s of %d indexes (%.1f MB) after a datanode stopped: %.1f s, %.1f MB/s;"
        + " plain copy of its %.1f MB on this disk: %.1f MB/s; rebuild at %.0f%% of the copy limit%s%n", what,
        b.replicas(), b.bytes() / 1e6, b.seconds(), b.mbps(), b.copyBytes() / 1e6, b.copyLimitMBps(),
        100 * b.mbps() / b.copyLimitMBps(), b.healed() ? "" : " (NOT HEALED)");
  }

  static String json(EcBenchmark.Result r) {
    StringJoiner transfers = new StringJoiner(",", "[", "]");
    for (EcBenchmark.Transfer t : r.transfers()) {
      transfers.add(String.format(Locale.ROOT, "{\"replication\":\"%s\",\"bytes\":%d,\"putMBps\":%.1f,"
          + "\"getMBps\":%.1f,\"storedBytes\":%d,\"storedPerByte\":%.3f}", t.replication(), t.bytes(), t.putMBps(),
          t.getMBps(), t.storedBytes(), t.storedPerByte()));
    }
    StringJoiner degraded = new StringJoiner(",", "[", "]");
    for (EcBenchmark.DegradedGet d : r.degraded()) {
      degraded.add(String.format(Locale.ROOT, "{\"replication\":\"%s\",\"gone\":%d,\"getMBps\":%.1f,"
          + "\"ratioToHealthy\":%.3f}", d.replication(), d.gone(), d.getMBps(), d.getMBps() / d.healthyMBps()));
    }
    return String.format(Locale.ROOT, "{\"transfers\":%s,\"degradedGets\":%s,\"rebuild\":%s,%s\"keys\":%d,"
        + "\"lostKeys\":%d}%n", transfers, degraded, rebuildJson(r.rebuild()),
        r.hdfsRebuild().map(peer -> "\"hdfsRebuild\":" + rebuildJson(peer) + ",").orElse(""), r.keys(),
        r.lostKeys());
  }

  private static String rebuildJson(EcRebuildPhase.Rebuild b) {
    return String.format(Locale.ROOT, "{\"indexes\":%d,\"bytes\":%d,\"seconds\":%.2f,\"MBps\":%.1f,"
        + "\"copyBytes\":%d,\"copyLimitMBps\":%.1f,\"ratio\":%.3f,\"healed\":%b}", b.replicas(), b.bytes(),
        b.seconds(), b.mbps(), b.copyBytes(), b.copyLimitMBps(), b.mbps() / b.copyLimitMBps(), b.healed());
  }
}
