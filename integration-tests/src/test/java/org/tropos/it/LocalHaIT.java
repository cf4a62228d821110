package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.om.OmServer;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.tools.local.LocalCluster;

/**
 * {@code tropos local --ha}: a local cluster whose three OMs form one HA service. A client that knows only the
 * first OM finds the leader through NOT_LEADER; the cluster started again on its directory is the same service
 * (ports kept), with its namespace.
 */
class LocalHaIT {
  @Test
  void aLocalClusterWithAnOmServiceServesAndRestartsWithItsData(@TempDir Path dir) throws Exception {
    Configuration base = MiniCluster.testConfig();
    String firstOm;
    try (LocalCluster cluster = new LocalCluster(dir, 3, 1, 1, true, base)) {
      cluster.start();
      assertEquals(3, cluster.oms().size());
      firstOm = "127.0.0.1:" + cluster.oms().get(0).port();
      try (TroposClient client = TroposClient.create(base.with(Map.of("ozone.om.address", firstOm)))) {
        client.createVolume(VolumeInfo.newBuilder().setName("kept").setOwner("it").build());
      }
      OmServer leader = cluster.om();
      Await.until("a leader", MiniCluster.WAIT, leader::serving, serving -> serving);
      try (TroposClient client = TroposClient.create(base.with(cluster.serviceKeys()))) {
        leader.close();
        client.createVolume(VolumeInfo.newBuilder().setName("after-the-leader").setOwner("it").build());
      }
    }
    try (LocalCluster cluster = new LocalCluster(dir, 3, 1, 1, true, base)) {
      cluster.start();
      assertEquals(firstOm, "127.0.0.1:" + cluster.oms().get(0).port(), "the same ports after a restart");
      try (TroposClient client = TroposClient.create(base.with(cluster.serviceKeys()))) {
        assertEquals("kept", client.getVolume("kept").getName());
        assertEquals("after-the-leader", client.getVolume("after-the-leader").getName());
      }
    }
  }
}
