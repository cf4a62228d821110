package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.proto.om.S3Secret;
import org.tropos.tools.Tropos;

/**
 * A short run of {@code tropos bench s3 --peer}: tropos local in a JVM of its own against another S3 service
 * (an in-process Tropos gateway here, whose server process is this JVM, found from its port): a row per service,
 * operation and size with the server CPU of both, and a ratio row per operation; GETs read every object four
 * times.
 */
@Timeout(300)
class BenchS3PeerIT {
  @TempDir
  Path dir;

  @Test
  void measuresBothServicesInTurnWithTheirServerCpuAndRatios() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code;
    try (S3Cluster peer = new S3Cluster(dir.resolve("peer"))) {
      S3Secret secret = peer.secret("bench");
      code = Tropos.run(new PrintWriter(out), new PrintWriter(err), "bench", "s3", "--peer",
          peer.endpoint().toString(), "--peer-name", "other", "--peer-key", secret.getAccessId(), "--peer-secret",
          secret.getSecret(), "--heap", "512m", "--warmup", "20", "--warmup-max-seconds", "0", "--small-count", "40",
          "--large", "2MB", "--large-count", "2", "--huge", "5MB", "--huge-count", "1", "--files", "0", "--single-renames", "0",
          "--json", "--dir", dir.resolve("bench").toString());
    }
    assertEquals(0, code, err + "\n" + out);
    List<String> rows = out.toString().lines().toList();
    for (String system : List.of("tropos", "other")) {
      for (String op : List.of("warmup-put", "warmup-get", "put", "get")) {
        for (long size : op.startsWith("warmup") ? new long[] {102400} : new long[] {102400, 2 << 20, 5 << 20}) {
          String row = only(rows, system, op, size);
          for (String field : List.of("concurrency", "opsPerSec", "mbPerSec", "p50Ms", "p99Ms", "serverJitPercent")) {
            assertTrue(row.contains("\"" + field + "\":"), field + " missing in " + row);
          }
          assertTrue(row.contains("\"errors\":0"), row);
          assertTrue(Pattern.compile("\"serverCpuMsPerOp\":\\d").matcher(row).find(), "server CPU known: " + row);
          if (op.equals("put") || op.equals("get")) {
            // every small object read four times over (--get-passes' default), once of the others (huge: one)
            long requests = size == 102400 ? 40 : size == 2 << 20 ? 2 : 1;
            assertTrue(row.contains("\"requests\":" + (op.equals("get") ? 4 * requests : requests) + ","), row);
          }
        }
      }
    }
    // after each round of warm-up (one of small objects, one of large ones) the servers' compilers were waited for
    assertEquals(2, rows.stream().filter(r -> r.startsWith("{\"op\":\"warmup-compiler-drain\"")).count(),
        out::toString);
    for (String op : List.of("put", "get")) {
      assertTrue(Pattern.compile("\"opsPerSec\":\\d").matcher(only(rows, "tropos/other", op, 102400)).find(),
          "a ratio row for " + op + ": " + out);
    }
  }

  /** The one row of {@code system}'s {@code op} on objects of {@code size} bytes. */
  private static String only(List<String> rows, String system, String op, long size) {
    List<String> found = rows.stream().filter(r -> r.startsWith("{\"system\":\"" + system + "\",\"op\":\"" + op
        + "\",\"sizeBytes\":" + size + ",")).toList();
    assertEquals(1, found.size(), system + " " + op + " " + size + ": " + rows);
    return found.get(0);
  }
}
