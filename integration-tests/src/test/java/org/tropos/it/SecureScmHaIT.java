package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmAddresses;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.scm.ScmServer;
import org.tropos.tools.local.LocalCluster;

/**
 * A secure cluster with an SCM HA service (and an OM service): the first leader makes the CA, every SCM signs its
 * own certificate from the CA's replicated rows, and when the leader stops the next one keeps issuing
 * certificates, refusing a token the first one already honoured. Every call goes over a socket, through TLS.
 */
@Timeout(300)
class SecureScmHaIT {
  private static final X509Settings X509 = X509Settings.from(Configuration.defaults());

  @TempDir
  Path dir;

  @BeforeAll
  static void overSockets() {
    // This class runs in a JVM of its own (reuseForks=false).
    System.setProperty(InProcessServers.PROPERTY, "false");
  }

  @AfterAll
  static void clear() {
    System.clearProperty(InProcessServers.PROPERTY);
  }

  @Test
  void theCaOutlivesTheScmLeaderAndTheClusterServesOverMutualTls() throws Exception {
    Configuration base = MiniCluster.testConfig().with(Map.of("ozone.security.enabled", "true"));
    try (LocalCluster cluster = new LocalCluster(dir.resolve("cluster"), 3, 1, 1, true, base)) {
      cluster.start();
      Configuration clients = base.with(cluster.serviceKeys()).with(cluster.securityKeys());
      List<HostPort> scmClients = ScmAddresses.clientServices(clients);
      cluster.awaitWritable(ReplicationFactor.THREE, MiniCluster.WAIT);
      byte[] data = new byte[100_000];
      new Random(7).nextBytes(data);
      try (TroposClient client = TroposClient.create(clients)) {
        client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
        client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("bucket").build());
        write(client, "before", data);
      }
      for (ScmServer scm : cluster.scms()) {
        assertTrue(Files.exists(scm.caFile().resolveSibling("identity.pem")), "every SCM signed its certificate");
      }

      ScmServer first = cluster.scm();
      String clusterId = first.identity().clusterId();
      String used = token(first, "datanode");
      join("dn-early", used, scmClients);
      cluster.stopScm(cluster.scms().indexOf(first));
      ScmServer next = cluster.scm();
      assertNotEquals(first, next, "another SCM serves");
      assertEquals(clusterId, next.identity().clusterId());

      ServiceCertificates late = join("dn-late", token(next, "datanode"), scmClients);
      late.identity().certificate().verify(PemFiles.certificate(Files.readString(next.caFile())).getPublicKey());
      assertThrows(IOException.class, () -> join("dn-again", used, scmClients),
          "a token the first leader honoured is spent on the next one too");

      try (ScmAdminClient admin = new ScmAdminClient(scmClients, TransportSecurity.trusting(PemFiles.certificate(
          Files.readString(next.caFile()))))) {
        Await.until("the datanodes registered with the new leader over mutual TLS", MiniCluster.WAIT,
            () -> admin.listDatanodes(NodeState.HEALTHY).size(), n -> n == 3);
      }
      try (TroposClient client = TroposClient.create(clients)) {
        write(client, "after", data);
        assertArrayEquals(data, read(client, "before"));
        assertArrayEquals(data, read(client, "after"));
      }
    }
  }

  private static String token(ScmServer scm, String role) {
    return TroposCli.run(0, "admin", "cert", "token", "--role", role, "--valid", "10m", "--security-dir",
        scm.caFile().getParent().toString()).strip();
  }

  /** A daemon's first certificate from the SCM service for {@code token}, over TLS to the CA it pins. */
  private ServiceCertificates join(String name, String token, List<HostPort> scm) throws Exception {
    try (ScmChannel pinned = new ScmChannel(scm, TransportSecurity.pinning(BootstrapTokens.pinnedCa(token)
        .orElseThrow()))) {
      return ServiceCertificates.join(dir.resolve(name), ServiceRole.DATANODE, name, X509,
          new ScmCertificateClient(pinned, token));
    }
  }

  private static void write(TroposClient client, String key, byte[] data) throws Exception {
    try (OutputStream out = client.createKey("vol", "bucket", key, data.length)) {
      out.write(data);
    }
  }

  private static byte[] read(TroposClient client, String key) throws Exception {
    try (InputStream in = client.readKey("vol", "bucket", key)) {
      return in.readAllBytes();
    }
  }
}
