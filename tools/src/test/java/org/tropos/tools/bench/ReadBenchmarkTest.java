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

/** CI smoke run of {@code tropos bench read} with a small block: every path reads it whole and verified. */
class ReadBenchmarkTest {
  @TempDir
  Path dir;

  @Test
  void readsTheBlockEveryWayAndPrintsTheAgreedFields() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), "bench", "read", "--size", "3MB", "--runs", "1",
        "--dir", dir.toString(), "--json");
    assertEquals(0, code, err.toString());
    String json = out.toString().trim();
    for (String field : List.of("sendfileMBps", "catMBps", "zeroCopyMBps", "copyingMBps", "zeroCopyCpuSecPerGiB",
        "copyingCpuSecPerGiB", "cpuSendfileVsCopying")) {
      assertTrue(json.contains("\"" + field + "\":"), field + " missing in " + json);
    }
    assertTrue(json.contains("\"sizeBytes\":3145728"), json);
  }
}
