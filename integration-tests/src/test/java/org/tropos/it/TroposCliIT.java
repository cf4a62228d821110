package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.tools.Tropos;
import org.tropos.tools.cli.ExitCodes;

/** The tropos command against a running cluster, as a script would use it: output and exit codes. */
@Timeout(120)
class TroposCliIT {
  @TempDir
  Path dir;

  private record Result(int exitCode, String out, String err) {
  }

  private static Result tropos(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void datanodeListAndTopologyShowEveryNodeWithItsRack() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir.resolve("data"), 3)) {
      mini.awaitAllHealthy();
      String conf = mini.clientConfDir(dir.resolve("conf")).toString();
      Result list = tropos("admin", "datanode", "list", "--conf", conf);
      assertEquals(ExitCodes.OK, list.exitCode(), list.err());
      List<String> lines = list.out().lines().toList();
      assertEquals(4, lines.size(), list.out());
      assertTrue(lines.get(0).startsWith("ID"));
      assertTrue(lines.get(1).contains("127.0.0.11") && lines.get(1).contains("/rack1")
          && lines.get(1).contains("HEALTHY") && lines.get(1).contains("1/1"), lines.get(1));
      assertTrue(lines.get(2).contains("/rack2"), lines.get(2));

      Result topology = tropos("admin", "printTopology", "--conf", conf);
      assertEquals(ExitCodes.OK, topology.exitCode(), topology.err());
      assertEquals(List.of("State = HEALTHY", " 127.0.0.11(127.0.0.11)    /rack1", " 127.0.0.12(127.0.0.12)    /rack2",
          " 127.0.0.13(127.0.0.13)    /rack1"), topology.out().lines().toList());

      Result stale = tropos("admin", "datanode", "list", "--state", "dead", "--conf", conf);
      assertEquals(1, stale.out().lines().count(), "only the header: no DEAD node");
    }
  }

  @Test
  void invalidConfigurationStopsStartUpNamingTheKey() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("bad"));
    Files.writeString(conf.resolve("ozone-site.xml"),
        "<configuration><property><name>hdds.heartbeat.interval</name><value>abc</value></property></configuration>");
    Result scm = tropos("scm", "--conf", conf.toString());
    assertEquals(ExitCodes.BAD_CONFIG, scm.exitCode());
    assertTrue(scm.err().contains("hdds.heartbeat.interval") && scm.err().contains("'abc'"), scm.err());
    assertEquals(ExitCodes.BAD_CONFIG, tropos("local", "--conf", conf.toString(), "--data-dir",
        dir.resolve("never").toString()).exitCode());
    assertTrue(Files.notExists(dir.resolve("never")), "nothing is created when the configuration is invalid");
  }

  @Test
  void unreachableScmAndBadUsageHaveTheirOwnExitCodes() throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Files.writeString(conf.resolve("ozone-site.xml"), "<configuration><property><name>ozone.scm.client.address</name>"
        + "<value>127.0.0.1:1</value></property></configuration>");
    Result down = tropos("admin", "datanode", "list", "--conf", conf.toString());
    assertEquals(ExitCodes.UNAVAILABLE, down.exitCode());
    assertTrue(down.err().contains("cannot reach SCM at 127.0.0.1:1"), down.err());
    assertEquals(ExitCodes.USAGE, tropos("admin", "no-such-command").exitCode());
    assertEquals(ExitCodes.OK, tropos("version").exitCode());
  }
}
