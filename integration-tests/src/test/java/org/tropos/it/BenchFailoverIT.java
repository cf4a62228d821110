package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.tools.Tropos;

/**
 * A short run of {@code tropos bench failover}: the OM leader and the SCM leader are stopped while writes go on,
 * and none of them fails or is lost; the throughput of both systems is measured and printed.
 */
@Timeout(300)
class BenchFailoverIT {
  @TempDir
  Path dir;

  @Test
  void noWriteFailsOrIsLostWhenEitherLeaderStopsAndEveryFieldIsPrinted() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), "bench", "failover", "--seconds", "6",
        "--rate", "50", "--scm-rate", "20", "--threads", "2", "--warmup-seconds", "1", "--warmup-max-seconds", "1",
        "--measure-seconds", "1", "--json", "--dir", dir.toString());
    assertEquals(0, code, err.toString());
    String json = out.toString();
    for (String field : List.of("acknowledged", "failed", "lost", "maxGapMs", "haOpsPerSec", "singleOpsPerSec",
        "nameNodeHaOpsPerSec", "nameNodeOpsPerSec", "raftFloorWritesPerSec", "omLeaderKill", "scmLeaderKill")) {
      assertTrue(json.contains("\"" + field + "\":"), field + " missing in " + json);
    }
    List<Long> acknowledged = numbers(json, "acknowledged");
    assertEquals(3, acknowledged.size(), json);
    assertTrue(acknowledged.stream().allMatch(n -> n > 0), "each run acknowledged writes: " + json);
    assertEquals(List.of(0L, 0L, 0L), numbers(json, "failed"), json);
    assertEquals(List.of(0L, 0L, 0L), numbers(json, "lost"), json);
  }

  /** Every value of {@code field} in {@code json}: the total, then the OM's and the SCM's leader kill. */
  private static List<Long> numbers(String json, String field) {
    Matcher m = Pattern.compile("\"" + field + "\": (\\d+)").matcher(json);
    return m.results().map(r -> Long.parseLong(r.group(1))).toList();
  }
}
