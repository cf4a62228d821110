package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.DelegationTokenCredential;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.TransportSecurity;
import org.tropos.om.OmServer;
import org.tropos.proto.om.GetDelegationTokenResponse;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.tools.local.LocalCluster;

/**
 * A secure OM HA service: the delegation tokens one leader issued are rows every OM holds, so after the leader
 * stops the next one accepts, renews and cancels them, and a cancelled token proves nobody there.
 */
class SecureOmHaIT {
  @TempDir
  static Path dir;

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
  void delegationTokensOutliveTheOmLeader() throws Exception {
    Configuration base = MiniCluster.testConfig().with(Map.of("ozone.security.enabled", "true"));
    try (LocalCluster cluster = new LocalCluster(dir.resolve("cluster"), 3, 1, 1, true, base)) {
      cluster.start();
      Configuration clients = base.with(cluster.serviceKeys()).with(cluster.securityKeys());
      X509Certificate root = SecuritySettings.clusterRoot(clients);
      GetDelegationTokenResponse issued;
      try (TroposClient administrator = TroposClient.create(clients)) {
        administrator.createVolume(VolumeInfo.newBuilder().setName("jobs").setOwner("it").build());
        issued = administrator.getDelegationToken(administrator.user());
      }
      TransportSecurity withToken = TransportSecurity.trusting(root, new DelegationTokenCredential(
          issued.getToken()));
      try (TroposClient task = TroposClient.create(clients, "nobody", withToken)) {
        assertEquals("jobs", task.getVolume("jobs").getName());
        OmServer leader = cluster.om();
        Await.until("a serving leader", MiniCluster.WAIT, leader::serving, serving -> serving);
        leader.close();
        assertEquals("jobs", task.getVolume("jobs").getName(), "the next leader knows the token");
        try (TroposClient administrator = TroposClient.create(clients)) {
          assertTrue(administrator.renewDelegationToken(issued.getToken()) >= issued.getExpiryMs());
          administrator.cancelDelegationToken(issued.getToken());
        }
        assertThrows(OmException.class, () -> task.getVolume("jobs"), "a cancelled token proves nobody");
      }
    }
  }
}
