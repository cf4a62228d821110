package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.ScmResult;

/** Block ids come from ranges SCM reserves ahead; across an SCM restart none is handed out twice. */
class BlockAllocationIT {
  @Test
  void blockIdsAreNeverReusedAcrossAnScmRestart(@TempDir Path dir) throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, Map.of("ozone.scm.datanode.pipeline.limit", "1"))) {
      mini.awaitAllHealthy();
      mini.awaitOpenPipelines(1);
      List<BlockId> before = allocate(mini, 5);
      mini.restartScm();
      mini.awaitOpenPipelines(1);
      List<BlockId> after = allocate(mini, 5);
      Set<BlockId> all = new HashSet<>(before);
      all.addAll(after);
      assertEquals(10, all.size(), "every block id is new: " + before + " then " + after);
      long lastBefore = before.get(before.size() - 1).getLocalId();
      for (BlockId id : after) {
        assertTrue(id.getContainerId() != before.get(0).getContainerId() || id.getLocalId() > lastBefore,
            "after the restart, ids continue past the reservation: " + id);
      }
    }
  }

  /** What tropos local waits for before it prints its endpoints: from then on a block is allocated at once. */
  @Test
  void aClusterThatSaysItIsWritableAllocatesBlocksAtTheFirstTry(@TempDir Path dir) throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, Map.of("ozone.scm.pipeline.creation.auto.factor.one",
        "true"));
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      for (ReplicationFactor factor : List.of(ReplicationFactor.THREE, ReplicationFactor.ONE)) {
        mini.cluster().awaitWritable(factor, MiniCluster.WAIT);
        assertEquals(factor == ReplicationFactor.ONE ? 1 : 3, scm.allocateBlock(1 << 20, factor,
            ExcludeList.getDefaultInstance()).getPipeline().getMembersCount(), factor.toString());
      }
    }
  }

  /**
   * What the OM keeps ahead for small keys: several blocks in one call, as many single calls would give them, except
   * that only the first may open a container (the others may never be written, and a container no datanode ever
   * got would be MISSING once its pipeline closed).
   */
  @Test
  void severalBlocksInOneCallAreNewAndOpenNoContainerBeyondTheFirst(@TempDir Path dir) throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, Map.of("ozone.scm.datanode.pipeline.limit", "2"));
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitAllHealthy();
      mini.awaitOpenPipelines(2);
      ExcludeList none = ExcludeList.getDefaultInstance();
      List<AllocateBlockResponse> first = scm.allocateBlocks(16, 128 << 10, ReplicationFactor.THREE, none);
      assertEquals(1, first.size(), "on a fresh cluster the batch stops where the next block needs a container");
      Set<BlockId> ids = new HashSet<>();
      Set<PipelineId> opened = new HashSet<>();
      first.forEach(b -> opened.add(b.getPipeline().getId()));
      while (opened.size() < 2) {
        AllocateBlockResponse single = scm.allocateBlock(128 << 10, ReplicationFactor.THREE, none);
        ids.add(single.getBlockId());
        opened.add(single.getPipeline().getId());
      }
      List<AllocateBlockResponse> blocks = scm.allocateBlocks(16, 128 << 10, ReplicationFactor.THREE, none);
      assertEquals(16, blocks.size(), "with a container open on each pipeline the batch is whole");
      assertEquals(2, blocks.stream().map(b -> b.getPipeline().getId()).distinct().count(),
          "the batch is spread over both pipelines, as single allocations are");
      first.forEach(b -> ids.add(b.getBlockId()));
      int before = ids.size();
      blocks.forEach(b -> ids.add(b.getBlockId()));
      assertEquals(before + 16, ids.size(), "every block of a batch is new: " + ids);
      for (int count : new int[] {0, 1001}) {
        ScmException refused = assertThrows(ScmException.class, () -> scm.allocateBlocks(count, 1 << 20,
            ReplicationFactor.THREE, none));
        assertEquals(ScmResult.INVALID_REQUEST, refused.result(), refused.getMessage());
      }
    }
  }

  private static List<BlockId> allocate(MiniCluster mini, int count) throws Exception {
    try (ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      List<BlockId> ids = new java.util.ArrayList<>();
      for (int i = 0; i < count; i++) {
        ids.add(scm.allocateBlock(1 << 20, ReplicationFactor.THREE, ExcludeList.getDefaultInstance()).getBlockId());
      }
      return ids;
    }
  }
}
