package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.tools.Tropos;

/** CI smoke run of {@code tropos bench write}: a tiny cluster and workload, every figure printed. */
@Timeout(180)
class WriteBenchmarkTest {
  @TempDir
  Path dir;

  @Test
  void writesThroughARealClusterAndPrintsTheFigures() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), "bench", "write", "--datanodes", "3",
        "--limits", "1", "--writers", "2", "--small", "10KB", "--small-count", "2", "--large", "1MB",
        "--large-count", "1", "--dir", dir.toString(), "--json");
    assertEquals(0, code, err.toString());
    String json = out.toString().trim();
    for (String field : List.of("limit", "smallMBps", "smallP50Ms", "smallP99Ms", "largeMBps", "largeP50Ms",
        "largeP99Ms")) {
      assertTrue(json.contains("\"" + field + "\":"), field + " missing in " + json);
    }
    assertTrue(json.contains("\"smallObjects\":4") && json.contains("\"largeObjects\":2"), json);
  }
}
