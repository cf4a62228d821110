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

/** CI smoke run of {@code tropos bench fs}: a few task outputs through both committers, then the lone renames. */
@Timeout(180)
class FsBenchmarkTest {
  @TempDir
  Path dir;

  @Test
  void commitsThroughBothCommittersAndRenamesTheLoneFiles() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), "bench", "fs", "--files", "20",
        "--file-sizes", "1KB", "--huge", "2MB", "--single-renames", "1", "--writers", "4", "--dir", dir.toString(),
        "--json");
    assertEquals(0, code, err.toString());
    List<String> lines = out.toString().lines().toList();
    assertEquals(4, lines.size(), out.toString());
    assertTrue(lines.get(0).contains("\"committer\":\"v1\"") && lines.get(1).contains("\"committer\":\"v2\""),
        out.toString());
    for (String line : lines.subList(0, 2)) {
      assertTrue(line.contains("\"files\":20") && line.contains("\"seconds\":"), line);
    }
    assertTrue(lines.get(3).contains("\"op\":\"rename\"") && lines.get(3).contains("\"fileSizeBytes\":2097152"),
        lines.get(3));
  }
}
