package org.tropos.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.tools.Tropos;

/** CI smoke run of {@code tropos bench placement} with tiny parameters: it runs and prints what it promises. */
class PlacementBenchmarkTest {
  @Test
  void jsonHasOneObjectPerSimulatedClusterWithTheAgreedFields() {
    StringWriter out = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "bench", "placement",
        "--nodes", "12", "--json");
    assertEquals(0, code);
    List<String> lines = out.toString().lines().toList();
    assertEquals(4, lines.size(), out.toString());
    for (String field : List.of("nodes", "racks", "limit", "pipelines", "ideal", "pipelinesPerNodeMin",
        "pipelinesPerNodeMax", "leadersPerNodeMin", "leadersPerNodeMax", "rackViolations", "unequalDisks",
        "proportionalToDisks")) {
      lines.forEach(line -> assertTrue(line.contains("\"" + field + "\":"), field + " missing in " + line));
    }
    assertTrue(lines.get(1).contains("\"pipelines\":12,\"ideal\":12"), lines.get(1));
    assertTrue(lines.get(3).contains("\"unequalDisks\":true,\"proportionalToDisks\":true"), lines.get(3));
  }
}
