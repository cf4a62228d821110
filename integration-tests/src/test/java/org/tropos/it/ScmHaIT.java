package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.ScmAddresses;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.scm.ScmServer;
import org.tropos.tools.local.LocalCluster;

/**
 * An SCM HA service of three SCMs (and an OM service, three datanodes) in this JVM: keys are written while the
 * SCM leader is stopped; another SCM takes over from the state the group replicated (containers, pipelines,
 * block-id ranges), the datanodes register with it, the OM's block allocations follow it, and no write fails.
 */
@Timeout(300)
class ScmHaIT {
  @TempDir
  Path dir;

  @Test
  void writesGoOnWhileTheScmLeaderIsStoppedAndTheNextOneServesTheSameCluster() throws Exception {
    Configuration base = MiniCluster.testConfig();
    try (LocalCluster cluster = new LocalCluster(dir, 3, 1, 1, true, base)) {
      cluster.start();
      Configuration clients = base.with(cluster.serviceKeys());
      try (ScmAdminClient admin = new ScmAdminClient(ScmAddresses.clientServices(clients));
          TroposClient client = TroposClient.create(clients)) {
        Await.until("an OPEN pipeline", MiniCluster.WAIT,
            () -> admin.listPipelines(PipelineState.OPEN).size(), n -> n > 0);
        client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
        client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("bucket").build());
        KeyLoad load = new KeyLoad(client, "vol", "bucket");
        load.write(5);
        String conf = TroposCli.confDir(dir, cluster.serviceKeys());
        String roles = TroposCli.run(0, "admin", "scm", "roles", "--conf", conf);
        assertEquals(1, nodesIn(roles, "LEADER").size(), roles);
        assertEquals(2, nodesIn(roles, "FOLLOWER").size(), roles);
        ScmServer first = cluster.scm();
        String clusterId = first.identity().clusterId();
        long containers = first.containerManager().replicationViews().size();

        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = load.writeUntil(stop);
        int beforeStop = load.acknowledgedCount();
        Await.until("writes under way", MiniCluster.WAIT, load::acknowledgedCount, n -> n >= beforeStop + 3);
        List<ScmServer> scms = cluster.scms();
        cluster.stopScm(scms.indexOf(first));
        ScmServer next = cluster.scm();
        assertNotEquals(first, next, "another SCM serves");
        int afterStop = load.acknowledgedCount();
        Await.until("writes acknowledged with the new SCM leader", MiniCluster.WAIT, load::acknowledgedCount,
            n -> n >= afterStop + 10);
        stop.set(true);
        writer.join();
        load.write(5);

        assertEquals(List.of(), load.writeFailures(), "no write failed while the SCM leader was stopped");
        assertEquals(0, load.failedWrites());
        assertEquals(List.of(), load.readAll(), "every acknowledged key reads back");
        assertTrue(load.acknowledgedCount() >= 10, load.acknowledgedCount() + " keys");
        assertEquals(clusterId, next.identity().clusterId(), "the same cluster");
        assertTrue(next.containerManager().replicationViews().size() >= containers,
            "the new leader knows the containers the first one made");
        Await.until("the datanodes registered with the new leader", MiniCluster.WAIT,
            () -> admin.listDatanodes(NodeState.HEALTHY).size(), n -> n == 3);
        String after = TroposCli.run(4, "admin", "scm", "roles", "--conf", conf);
        assertEquals(1, nodesIn(after, "LEADER").size(), after);
        assertEquals(1, nodesIn(after, "UNREACHABLE").size(), after);
      }
    }
  }

  /**
   * Datanodes heartbeat to every SCM of the service, so the next leader knows them, alive, as soon as it serves:
   * with heartbeats a minute apart none beats between the first leader stopping and the check, and a leader that
   * had not heard them as a follower would see no HEALTHY node (nowhere to allocate a block) until they did.
   */
  @Test
  void theNextLeaderKnowsTheDatanodesAsSoonAsItServes() throws Exception {
    Configuration base = MiniCluster.testConfig().with(Map.of("hdds.heartbeat.interval", "60s",
        "ozone.scm.stale.node.interval", "180s", "ozone.scm.dead.node.interval", "360s"));
    try (LocalCluster cluster = new LocalCluster(dir, 3, 1, 1, true, base)) {
      cluster.start();
      Configuration clients = base.with(cluster.serviceKeys());
      try (ScmAdminClient admin = new ScmAdminClient(ScmAddresses.clientServices(clients))) {
        for (ScmServer scm : cluster.scms()) {
          Await.until("the datanodes registered with every SCM", MiniCluster.WAIT, scm::datanodesHeard, n -> n == 3);
        }
        ScmServer first = cluster.scm();
        cluster.stopScm(cluster.scms().indexOf(first));
        ScmServer next = cluster.scm();
        assertNotEquals(first, next, "another SCM serves");
        List<DatanodeStatus> nodes = admin.listDatanodes(NodeState.HEALTHY);
        assertEquals(3, nodes.size(), "HEALTHY datanodes on the new leader: " + nodes);
      }
    }
  }

  /** A configuration directory whose ozone-site.xml holds {@code keys}; its path. */

  /** The nodes whose row of {@code tropos admin scm roles} says {@code role}. */
  private static List<String> nodesIn(String roles, String role) {
    return roles.lines().skip(1).map(l -> l.split("\\s+")).filter(f -> f[2].equals(role)).map(f -> f[0]).toList();
  }
}
