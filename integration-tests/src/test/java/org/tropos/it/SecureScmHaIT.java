package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;
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
import org.tropos.common.net.ScmService;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.ratis.RaftTls;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.ScmCertificateClient;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.security.BootstrapTokens;
import org.tropos.common.security.CertificateIssuer;
import org.tropos.common.security.PemFiles;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceCertificates;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.X509Settings;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.db.ScmRowChange;
import org.tropos.proto.scm.db.ScmWriteSet;
import org.tropos.scm.ScmServer;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.ratis.ScmRaftServer;
import org.tropos.tools.local.LocalCluster;

/**
 * A secure cluster with an SCM HA service (and an OM service): the primordial SCM makes the CA, the others join
 * with a token and hold the same rows, every SCM signs its own certificate before the SCMs' group (mutual TLS)
 * runs, and when the leader stops the next one keeps issuing certificates, refusing a token the first one already
 * honoured. Every call goes over a socket, through TLS.
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

      // An administrator's certificate: SCM's views answer administrators alone.
      try (ScmAdminClient admin = new ScmAdminClient(scmClients, SecuritySettings.userTransport(clients))) {
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

  /**
   * The SCMs' Raft group admits only SCM certificates: a Raft client with no certificate, or a user's, an OM's or a
   * datanode's, submits no change to SCM's replicated database (an SCM's does, so the check has teeth), while any
   * certificate of the cluster may ask who leads ({@code tropos admin scm roles}, as an administrator). An SCM
   * that lost its directory gets the cluster's CA again only with an unused token for an SCM.
   */
  @Test
  void onlyScmsReachTheScmGroupAndALostScmJoinsAgainWithATokenForAnScm() throws Exception {
    Configuration base = MiniCluster.testConfig().with(Map.of("ozone.security.enabled", "true"));
    List<Path> homes;
    try (LocalCluster cluster = new LocalCluster(dir.resolve("cluster"), 1, 1, 1, true, base)) {
      cluster.start();
      Configuration clients = base.with(cluster.serviceKeys()).with(cluster.securityKeys());
      Map<String, String> clientKeys = new HashMap<>(cluster.serviceKeys());
      clientKeys.putAll(cluster.securityKeys());
      String site = TroposCli.confDir(dir, clientKeys);
      String roles = TroposCli.run(0, "admin", "scm", "roles", "--conf", site);
      assertEquals(1, inRole(roles, "LEADER"), roles);
      assertEquals(2, inRole(roles, "FOLLOWER"), roles);

      ScmService service = ScmService.from(clients).orElseThrow();
      RaftGroup group = RaftMember.group(ScmRaftServer.KIND, service.id(), service.raftPeers());
      CertificateIssuer ca = cluster.scm().certificateIssuer().orElseThrow();
      X509Certificate root = PemFiles.certificate(Files.readString(cluster.scm().caFile()));
      Map<String, TransportSecurity> outsiders = Map.of("none", TransportSecurity.trusting(root),
          "user", as(ServiceRole.USER, "mallory", ca), "om", as(ServiceRole.OM, "localhost", ca),
          "datanode", as(ServiceRole.DATANODE, "127.0.0.99", ca));
      for (Map.Entry<String, TransportSecurity> outsider : outsiders.entrySet()) {
        try (RaftClient client = scmGroupClient(group, outsider.getValue())) {
          assertThrows(IOException.class, () -> client.io().send(probe("probe-" + outsider.getKey())),
              outsider.getKey() + " submits to the SCMs' group");
        }
      }
      try (RaftClient scm = scmGroupClient(group, as(ServiceRole.SCM, "localhost", ca))) {
        RaftClientReply reply = scm.io().send(probe("probe-scm"));
        assertTrue(reply.isSuccess(), reply.toString());
      }

      int lost = cluster.scms().indexOf(cluster.scm()) == 2 ? 1 : 2;
      Path home = cluster.scms().get(lost).caFile().getParent().getParent();
      cluster.stopScm(lost);
      wipe(home);
      IOException noToken = assertThrows(IOException.class, () -> cluster.restartScm(lost, ""));
      assertTrue(noToken.getMessage().contains("--bootstrap-token"), noToken.getMessage());
      IOException wrongRole = assertThrows(IOException.class, () -> cluster.restartScm(lost,
          token(cluster.scm(), "datanode")));
      assertTrue(wrongRole.getMessage().contains("is for a datanode"), wrongRole.getMessage());
      String scmToken = token(cluster.scm(), "scm");
      cluster.restartScm(lost, scmToken);
      ServiceCertificates.Identity joined = ServiceCertificates.ofFile(home.resolve("scm-security")
          .resolve("identity.pem"), X509).identity();
      assertEquals(root, joined.root(), "the SCM that joined holds a certificate of the cluster's CA");
      joined.certificate().verify(root.getPublicKey());
      cluster.stopScm(lost);
      wipe(home);
      IOException spent = assertThrows(IOException.class, () -> cluster.restartScm(lost, scmToken));
      assertTrue(spent.getMessage().contains("used already"), spent.getMessage());
      homes = cluster.scms().stream().filter(Objects::nonNull).map(scm -> scm.caFile().getParent().getParent())
          .toList();
    }
    for (Path home : homes) {
      try (ScmDb db = ScmDb.open(home.resolve("scm.db"))) {
        assertEquals("probe-scm", db.meta("probe-scm"), "an SCM's change is applied on the SCMs");
        for (String outsider : List.of("none", "user", "om", "datanode")) {
          assertEquals(null, db.meta("probe-" + outsider), outsider + "'s change is applied nowhere");
        }
      }
    }
  }

  /** A change to SCM's database as the SCMs' group applies it: meta row {@code key} set to its own name. */
  private static Message probe(String key) {
    byte[] name = key.getBytes(StandardCharsets.UTF_8);
    return Message.valueOf(org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(ScmWriteSet
        .newBuilder().addChanges(ScmRowChange.newBuilder().setFamily("meta").setKey(ByteString.copyFrom(name))
            .setValue(ByteString.copyFrom(name))).build().toByteArray()));
  }

  private static RaftClient scmGroupClient(RaftGroup group, TransportSecurity caller) {
    return RaftMember.client(group, new RaftProperties(), RetryPolicies.retryUpToMaximumCountWithFixedSleep(6,
        TimeDuration.valueOf(500, TimeUnit.MILLISECONDS)), RaftTls.client(caller, ServiceRole.SCM));
  }

  private TransportSecurity as(ServiceRole role, String host, CertificateIssuer ca) throws Exception {
    return TransportSecurity.mutual(ServiceCertificates.join(dir.resolve(role.subjectName() + "-" + host), role,
        host, X509, ca));
  }

  /** How many SCMs {@code tropos admin scm roles} printed in {@code role}. */
  private static long inRole(String roles, String role) {
    return roles.lines().skip(1).filter(l -> l.split("\\s+")[2].equals(role)).count();
  }

  private static void wipe(Path home) throws IOException {
    try (Stream<Path> paths = Files.walk(home)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        if (!path.equals(home)) {
          Files.delete(path);
        }
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
