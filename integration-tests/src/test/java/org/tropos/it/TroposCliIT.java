package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.security.CertificateAuthority;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.X509Settings;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.om.OmResult;
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

  /**
   * {@code tropos scm --init} makes the cluster and its CA from an operator's PEM files, once; another CA later is
   * refused and replaces nothing. A cluster started on the operator's CA speaks TLS with it.
   */
  @Test
  void scmInitTakesAnOperatorsCaOnceAndAClusterServesWithIt() throws Exception {
    X509Settings x509 = X509Settings.from(Configuration.defaults());
    CertificateAuthority operators = CertificateAuthority.create(x509, "corp", SystemClock.INSTANCE);
    Map<String, String> keys = new java.util.HashMap<>(Map.of("ozone.security.enabled", "true",
        "ozone.metadata.dirs", dir.resolve("scm-meta").toString()));
    keys.putAll(caFiles("operator", operators));
    String conf = TroposCli.confDir(dir.resolve("init"), keys);
    Result first = tropos("scm", "--init", "--conf", conf);
    assertEquals(ExitCodes.OK, first.exitCode(), first.err());
    String caFile = first.out().lines().filter(l -> l.startsWith("CA certificate: ")).findFirst().orElseThrow()
        .substring("CA certificate: ".length());
    assertEquals(PemFiles.toPem(operators.root()), Files.readString(Path.of(caFile)));
    Result again = tropos("scm", "--init", "--conf", conf);
    assertEquals(first.out(), again.out(), "the same cluster and CA");

    keys.putAll(caFiles("another", CertificateAuthority.create(x509, "other", SystemClock.INSTANCE)));
    Result replacing = tropos("scm", "--init", "--conf", TroposCli.confDir(dir.resolve("init-another"), keys));
    assertTrue(replacing.exitCode() != ExitCodes.OK && replacing.err().contains("not replaced"), replacing.err());
    assertEquals(PemFiles.toPem(operators.root()), Files.readString(Path.of(caFile)), "nothing replaced");

    Map<String, String> secure = new java.util.HashMap<>(caFiles("operator", operators));
    secure.put("ozone.security.enabled", "true");
    try (MiniCluster mini = new MiniCluster(dir.resolve("data"), 1, 1, secure);
        TroposClient client = TroposClient.create(mini.clientConfig())) {
      assertEquals(operators.root(), PemFiles.certificate(Files.readString(mini.cluster().scm().caFile())));
      client.createVolume(org.tropos.proto.om.VolumeInfo.newBuilder().setName("signed-by-corp").setOwner("it")
          .build());
      assertEquals("signed-by-corp", client.getVolume("signed-by-corp").getName());
    }
  }

  /** Writes {@code ca}'s certificate and key as an operator's files; the keys naming them. */
  private Map<String, String> caFiles(String name, CertificateAuthority ca) throws Exception {
    Path certificate = dir.resolve(name + "-ca.crt");
    Path key = dir.resolve(name + "-ca.key");
    Files.writeString(certificate, PemFiles.toPem(ca.root()));
    Files.writeString(key, ca.keyPem());
    return Map.of("hdds.x509.rootca.certificate.file", certificate.toString(), "hdds.x509.rootca.private.key.file",
        key.toString());
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
  void containersAndDatanodeAdministrationFromTheCommandLine() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir.resolve("data"), 3, 1, Map.of("ozone.scm.block.size", "1MB",
        "ozone.scm.container.size", "4MB", "hdds.scm.replication.thread.interval", "200ms"));
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress());
        WrittenBlocks written = new WrittenBlocks()) {
      mini.awaitOpenPipelines(1);
      written.write(scm, 3, 5);
      String conf = mini.clientConfDir(dir.resolve("conf")).toString();
      // The first container: later ones were opened because it filled, so it closes (the last may stay open).
      long container = written.blocks().stream().mapToLong(b -> b.block().getContainerId()).min().orElseThrow();
      Await.until("container " + container + " CLOSED and checked", MiniCluster.WAIT,
          () -> tropos("admin", "container", "list", "--state", "CONTAINER_CLOSED", "--conf", conf).out(),
          out -> out.lines().anyMatch(l -> l.startsWith(container + " ") && l.contains("HEALTHY")));

      Result info = tropos("admin", "container", "info", Long.toString(container), "--conf", conf);
      assertEquals(ExitCodes.OK, info.exitCode(), info.err());
      assertEquals(3, info.out().lines().filter(l -> l.contains("127.0.0.1") && l.contains("CONTAINER_CLOSED"))
          .count(), info.out());
      Result missing = tropos("admin", "container", "info", "999999", "--conf", conf);
      assertEquals(ExitCodes.FAILED, missing.exitCode());
      assertTrue(missing.err().contains("no container 999999"), missing.err());

      Result report = tropos("admin", "container", "report", "--conf", conf);
      assertEquals(ExitCodes.OK, report.exitCode(), report.err());
      assertTrue(report.out().lines().anyMatch(l -> l.matches("\\s+HEALTHY\\s+[1-9][0-9]*")), report.out());

      Result unknown = tropos("admin", "datanode", "decommission", "no-such-host", "--conf", conf);
      assertEquals(ExitCodes.FAILED, unknown.exitCode());
      assertTrue(unknown.out().contains("error: no datanode is named no-such-host"), unknown.out());
      Result list = tropos("admin", "datanode", "list", "--conf", conf);
      assertTrue(list.out().lines().skip(1).allMatch(l -> l.contains("IN_SERVICE")), list.out());
      assertEquals(ExitCodes.USAGE, tropos("admin", "datanode", "maintenance", "--conf", conf).exitCode(),
          "a host is required");
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

  @Test
  void onlyTheOmsAdministratorsActForAnotherUserWhateverTheClientsConfigurationSays() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir.resolve("data"), 1)) {
      String conf = mini.clientConfDir(dir.resolve("conf")).toString();
      Result forAlice = tropos("s3", "getsecret", "--user", "alice", "--conf", conf);
      assertEquals(ExitCodes.OK, forAlice.exitCode(), "the user running the OM administers it: " + forAlice.err());
      String aliceSecret = forAlice.out();

      String was = System.getProperty("HADOOP_USER_NAME");
      System.setProperty("HADOOP_USER_NAME", "mallory");
      try {
        Result own = tropos("s3", "getsecret", "--conf", conf);
        assertEquals(ExitCodes.OK, own.exitCode(), own.err());
        assertTrue(own.out().startsWith("awsAccessKey=mallory"), own.out());
        for (String[] command : List.of(new String[] {"getsecret"}, new String[] {"setsecret", "--secret", "x"},
            new String[] {"revokesecret"})) {
          List<String> line = new java.util.ArrayList<>(List.of("s3"));
          line.addAll(List.of(command));
          line.addAll(List.of("--user", "alice", "--conf", conf, "-D", "ozone.administrators=mallory,*"));
          Result refused = tropos(line.toArray(String[]::new));
          assertEquals(ExitCodes.FAILED, refused.exitCode(), String.join(" ", line) + ": " + refused.out());
          assertTrue(refused.err().contains("may not") && refused.err().contains("ozone.administrators"),
              refused.err());
        }
        try (TroposClient asMallory = TroposClient.create(mini.clientConfig().with("ozone.administrators", "*"))) {
          assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class,
              () -> asMallory.getS3Secret("alice", false)).result());
        }
      } finally {
        if (was == null) {
          System.clearProperty("HADOOP_USER_NAME");
        } else {
          System.setProperty("HADOOP_USER_NAME", was);
        }
      }
      assertEquals(aliceSecret, tropos("s3", "getsecret", "--user", "alice", "--conf", conf).out(),
          "alice's secret is unchanged");
    }
  }
}
