package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.hdds.ReplicationFactor;

/** Containers from OPEN to CLOSED through Raft when full, and to QUASI_CLOSED when their pipeline is lost. */
@Timeout(180)
class ContainerLifecycleIT {
  private static final int MB = 1 << 20;
  private static final BlockWriteSettings SETTINGS = new BlockWriteSettings(MB, MB / 4, 16 * 1024,
      4, 5, ReplicationFactor.THREE, Duration.ofSeconds(3));
  /** 1 MB blocks in 4 MB containers: the fourth block fills a container. */
  private static final Map<String, String> SMALL_CONTAINERS = Map.of("ozone.scm.datanode.pipeline.limit", "1",
      "ozone.scm.block.size", "1MB", "ozone.scm.container.size", "4MB");

  @TempDir
  Path dir;
  /** Shared by the writers of a test, as a process shares them; closed after each test. */
  private final BlockClients blockClients = new BlockClients();

  @org.junit.jupiter.api.AfterEach
  void closeBlockClients() {
    blockClients.close();
  }

  private List<BlockLocation> write(ScmBlockClient scm, int bytes) throws Exception {
    try (BlockWriter writer = blockClients.over(scm).newWriter(SETTINGS)) {
      writer.write(ByteBuffer.allocate(bytes));
      return writer.finish();
    }
  }

  private static ContainerState replicaState(DatanodeServer dn, long container) {
    return dn.store().containers().stream().filter(c -> c.getContainerId() == container).findFirst()
        .map(ContainerDescriptor::getState).orElse(ContainerState.CONTAINER_STATE_UNSPECIFIED);
  }

  @Test
  void aContainerThatCannotTakeAnotherWholeBlockCloses() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, SMALL_CONTAINERS);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitOpenPipelines(1);
      // 700 KB blocks, as keys smaller than a block get: five leave 0.6 MB of 4 MB, too little for a whole block.
      long first = scm.allocateBlock(700 * 1024, ReplicationFactor.THREE, ExcludeList.getDefaultInstance())
          .getBlockId().getContainerId();
      for (int i = 0; i < 5; i++) {
        scm.allocateBlock(700 * 1024, ReplicationFactor.THREE, ExcludeList.getDefaultInstance());
      }
      // Nothing was written into it, so there is no replica to close: what matters is that it takes no more.
      assertEquals(ContainerState.CONTAINER_CLOSING,
          mini.cluster().scm().containerManager().container(first).getState());
    }
  }

  @Test
  void aFullContainerClosesOnEveryReplicaAndALostPipelinesContainerQuasiCloses() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, SMALL_CONTAINERS);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress());
        ScmAdminClient admin = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until("an OPEN pipeline", MiniCluster.WAIT, () -> admin.listPipelines(PipelineState.OPEN),
          ps -> ps.size() == 1 && ps.get(0).hasLeader());
      List<BlockLocation> full = write(scm, 4 * MB);
      long first = full.get(0).block().getContainerId();
      Await.until("container " + first + " CLOSED in SCM", MiniCluster.WAIT,
          () -> mini.cluster().scm().containerManager().container(first).getState(),
          s -> s == ContainerState.CONTAINER_CLOSED);
      for (int i = 1; i <= 3; i++) {
        assertEquals(ContainerState.CONTAINER_CLOSED, replicaState(mini.cluster().datanode(i), first));
      }

      List<BlockLocation> more = write(scm, MB);
      long second = more.get(0).block().getContainerId();
      UUID pipeline = Uuids.fromProto(admin.listPipelines(PipelineState.OPEN).get(0).getId().getId());
      admin.closePipeline(pipeline);
      assertEquals(ContainerState.CONTAINER_QUASI_CLOSED,
          mini.cluster().scm().containerManager().container(second).getState());
      for (int i = 1; i <= 3; i++) {
        DatanodeServer dn = mini.cluster().datanode(i);
        Await.until("dn" + i + "'s replica of " + second + " QUASI_CLOSED", MiniCluster.WAIT,
            () -> replicaState(dn, second), s -> s == ContainerState.CONTAINER_QUASI_CLOSED);
      }
    }
  }
}
