package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.DatanodeStatus;

/** SCM and three datanodes: registration, racks, health transitions and restarts of either side. */
@Timeout(120)
class ClusterMembershipIT {
  @TempDir
  Path dir;

  @Test
  void threeDatanodesRegisterHealthyOnAlternatingRacks() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3)) {
      mini.awaitAllHealthy();
      List<DatanodeStatus> nodes = mini.datanodes();
      assertEquals(List.of("127.0.0.11", "127.0.0.12", "127.0.0.13"),
          nodes.stream().map(n -> n.getDetails().getHostName()).toList());
      assertEquals(List.of("/rack1", "/rack2", "/rack1"),
          nodes.stream().map(n -> n.getDetails().getNetworkLocation()).toList());
      for (DatanodeStatus node : nodes) {
        assertEquals(1, node.getLastReport().getVolumesCount());
        assertEquals(1, node.getLastReport().getRaftLogDirsCount());
        assertTrue(node.getLastReport().getVolumes(0).getCapacityBytes() > 0);
      }
    }
  }

  @Test
  void stoppedDatanodeGoesStaleThenDeadAndComesBackHealthy() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3)) {
      mini.awaitAllHealthy();
      UUID stopped = mini.cluster().datanode(2).id().uuid();
      mini.cluster().stopDatanode(2);
      mini.awaitState(stopped, NodeState.STALE);
      assertEquals(NodeState.HEALTHY, mini.states().get(mini.cluster().datanode(1).id().uuid()));
      mini.awaitState(stopped, NodeState.DEAD);
      mini.cluster().startDatanode(2);
      mini.awaitState(stopped, NodeState.HEALTHY);
      assertEquals(stopped, mini.cluster().datanode(2).id().uuid(), "a restarted datanode keeps its id");
      assertEquals(3, mini.datanodes().size());
    }
  }

  @Test
  void restartedScmKnowsTheSameClusterAndDatanodesReRegister() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3)) {
      mini.awaitAllHealthy();
      String clusterId = mini.cluster().scm().identity().clusterId();
      Map<UUID, NodeState> before = mini.states();
      mini.restartScm();
      assertEquals(clusterId, mini.cluster().scm().identity().clusterId());
      assertEquals(before.keySet(), mini.states().keySet(), "SCM reloads the nodes it knew from its database");
      mini.awaitAllHealthy();
      assertEquals(before.keySet(), mini.states().keySet());
    }
  }

  @Test
  void restartedClusterBringsTheSameIdsBack() throws Exception {
    Map<UUID, NodeState> first;
    String clusterId;
    try (MiniCluster mini = new MiniCluster(dir, 3)) {
      mini.awaitAllHealthy();
      first = mini.states();
      clusterId = mini.cluster().scm().identity().clusterId();
    }
    try (MiniCluster mini = new MiniCluster(dir, 3)) {
      mini.awaitAllHealthy();
      assertEquals(first.keySet(), mini.states().keySet());
      assertEquals(clusterId, mini.cluster().scm().identity().clusterId());
    }
  }

  @Test
  void aFailedVolumeIsReportedAndTheDatanodeStaysHealthy() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3)) {
      mini.awaitAllHealthy();
      UUID victim = mini.cluster().datanode(1).id().uuid();
      Path volume = dir.resolve("dn1").resolve("data1");
      // The disk goes away at once: the datanode writes in the volume (RocksDB, disk probes) all the time, so
      // deleting the tree file by file would race with it.
      Files.move(volume, volume.resolveSibling("data1.gone"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      Files.writeString(volume, "the disk is gone");
      Await.until("dn1's volume reported FAILED", MiniCluster.WAIT, () -> volumeOf(mini, victim),
          v -> v.getState() == StorageState.FAILED);
      assertTrue(volumeOf(mini, victim).getFailureReason().contains("not a directory"));
      assertEquals(NodeState.HEALTHY, mini.states().get(victim));
    }
  }

  private static VolumeReport volumeOf(MiniCluster mini, UUID node) throws Exception {
    return mini.datanodes().stream().filter(d -> Uuids.fromProto(d.getDetails().getUuid()).equals(node))
        .findFirst().orElseThrow().getLastReport().getVolumes(0);
  }
}
