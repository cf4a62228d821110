package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.tools.Tropos;

/** A smoke run of {@code tropos bench om}, NameNode included, with tiny parameters. */
class OmBenchmarkTest {
  @TempDir
  Path dir;

  @Test
  void measuresTroposAndTheNameNodeAndPrintsTheAgreedFields() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), "bench", "om", "--files", "300", "--threads",
        "2", "--conflict-files", "200", "--names", "200,1", "--json", "--dir", dir.toString());
    assertEquals(0, code, err.toString());
    List<String> lines = out.toString().lines().toList();
    assertEquals(5, lines.size(), out.toString());
    for (String line : lines.subList(0, 2)) {
      for (String field : List.of("experiment", "files", "threads", "troposOpsPerSec", "namenodeOpsPerSec", "ratio",
          "p50Ms", "p99Ms")) {
        assertTrue(line.contains("\"" + field + "\":"), field + " missing in " + line);
      }
      assertTrue(!line.contains("\"namenodeOpsPerSec\":null"), "the NameNode was measured: " + line);
    }
    for (String line : lines.subList(2, 4)) {
      assertTrue(line.contains("\"conflictShare\":") && line.contains("\"slowdown\":"), line);
    }
    assertTrue(lines.get(4).contains("\"experiment\":\"rename\"") && lines.get(4).contains("\"fullDirRenameMs\":"),
        lines.get(4));
  }
}
