package org.tropos.om.scm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.SmallKeyBlocks;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.hdds.Uuid;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;

class BlockPoolTest {
  private static final ReplicationFactor THREE = ReplicationFactor.THREE;

  private final ManualClock clock = new ManualClock();
  /** Each call to SCM: "count x size factor". */
  private final List<String> calls = new ArrayList<>();
  private long nextLocalId = 1;
  /** At most this many blocks per call, as an SCM that runs out of room part way gives fewer. */
  private int scmGives = Integer.MAX_VALUE;

  /**
   * SCM's answer: blocks numbered in order, taking turns over pipelines 1 and 2 (members: datanodes 1-3 and 4-6),
   * each in container 10 + its pipeline.
   */
  private List<AllocateBlockResponse> scm(int count, long size, ReplicationFactor factor) {
    calls.add(count + " x " + size + " " + factor);
    List<AllocateBlockResponse> blocks = new ArrayList<>();
    for (int i = 0; i < Math.min(count, scmGives); i++) {
      long localId = nextLocalId++;
      int pipeline = (int) (localId % 2) + 1;
      PipelineInfo.Builder info = PipelineInfo.newBuilder().setId(pipelineId(pipeline));
      for (int node = 3 * pipeline - 2; node <= 3 * pipeline; node++) {
        info.addMembers(PipelineMember.newBuilder().setDatanode(DatanodeDetails.newBuilder().setUuid(node(node))));
      }
      blocks.add(AllocateBlockResponse.newBuilder().setPipeline(info)
          .setBlockId(BlockId.newBuilder().setContainerId(10 + pipeline).setLocalId(localId)).build());
    }
    return blocks;
  }

  private static PipelineId pipelineId(int n) {
    return PipelineId.newBuilder().setId(Uuid.newBuilder().setLeastSignificantBits(n)).build();
  }

  private static Uuid node(int n) {
    return Uuid.newBuilder().setMostSignificantBits(n).build();
  }

  private BlockPool pool() {
    return new BlockPool(clock, this::scm);
  }

  private static long localId(AllocateBlockResponse block) {
    return block.getBlockId().getLocalId();
  }

  @Test
  void smallKeysTakeTheirBlocksFromOneCallToScmPerBatch() throws Exception {
    BlockPool pool = pool();
    List<Long> taken = new ArrayList<>();
    for (int i = 0; i < BlockPool.FIRST_BATCH + 1; i++) {
      taken.add(localId(pool.take(100 << 10, THREE)));
      clock.advance(Duration.ofMillis(100));
    }
    assertEquals(List.of("16 x 131072 THREE", "16 x 131072 THREE"), calls,
        "100 KB rounds up to 128 KB; the 17th key starts the second batch, as large: the first took a while");
    for (int i = 0; i < taken.size(); i++) {
      assertEquals(i + 1, taken.get(i), "in the order SCM allocated them, each once");
    }
  }

  @Test
  void eachRoundedSizeAndReplicationHasItsOwnBatch() throws Exception {
    BlockPool pool = pool();
    pool.take(1, THREE);
    pool.take(64 << 10, THREE);
    pool.take((64 << 10) + 1, THREE);
    pool.take(SmallKeyBlocks.LARGEST, THREE);
    pool.take(1, ReplicationFactor.ONE);
    assertEquals(List.of("16 x 65536 THREE", "16 x 131072 THREE", "16 x 1048576 THREE", "16 x 65536 ONE"), calls);
  }

  @Test
  void batchesDoubleWhileUsedUpQuicklyAndHalveWhenTheirBlocksGrowOld() throws Exception {
    BlockPool pool = pool();
    for (int i = 0; i < 16 + 32 + 64 + 128 + 128 + 1; i++) {
      pool.take(100, THREE);
    }
    assertEquals(List.of("16 x 65536 THREE", "32 x 65536 THREE", "64 x 65536 THREE", "128 x 65536 THREE",
        "128 x 65536 THREE", "128 x 65536 THREE"), calls, "up to the largest batch, all taken at once");
    clock.advance(BlockPool.MAX_AGE.plusMillis(1));
    pool.take(100, THREE);
    assertEquals("64 x 65536 THREE", calls.get(calls.size() - 1), "127 blocks grew too old: half as many next");
  }

  @Test
  void aBlockThatWaitedLongerThanTheMaxAgeIsNotHandedOut() throws Exception {
    BlockPool pool = pool();
    assertEquals(1, localId(pool.take(100, THREE)));
    clock.advance(BlockPool.MAX_AGE);
    assertEquals(2, localId(pool.take(100, THREE)), "exactly the max age is still young enough");
    clock.advance(Duration.ofMillis(1));
    assertEquals(BlockPool.FIRST_BATCH + 1, localId(pool.take(100, THREE)), "the rest of the batch is dropped");
    assertEquals(2, calls.size());
  }

  @Test
  void theBlocksOnWhatAWriterFailedWithAreDropped() throws Exception {
    BlockPool pool = pool();
    pool.take(100, THREE); // block 1; 2-16 pooled, even ones on pipeline 1, odd ones on pipeline 2
    pool.drop(ExcludeList.newBuilder().addPipelines(pipelineId(1)).build());
    assertEquals(3, localId(pool.take(100, THREE)), "block 2 was on pipeline 1");
    assertEquals(5, localId(pool.take(100, THREE)), "so was block 4");
    pool.drop(ExcludeList.newBuilder().addContainers(12).build());
    assertEquals(BlockPool.FIRST_BATCH + 1, localId(pool.take(100, THREE)), "every odd block was in container 12");

    pool.take(100, THREE);
    pool.drop(ExcludeList.newBuilder().addDatanodes(node(5)).build());
    long next = localId(pool.take(100, THREE));
    assertEquals(0, next % 2, "the blocks on pipeline 2, whose member failed, are gone: " + next);
  }

  @Test
  void anScmThatAllocatesFewerThanAskedServesTheKeysItCan() throws Exception {
    scmGives = 2;
    BlockPool pool = pool();
    assertEquals(List.of(1L, 2L, 3L), List.of(localId(pool.take(100, THREE)), localId(pool.take(100, THREE)),
        localId(pool.take(100, THREE))));
    assertEquals(2, calls.size());
    scmGives = 0;
    pool.take(100, THREE);
    assertThrows(OmException.class, () -> pool.take(100, THREE),
        "nothing allocated is a retriable failure, not a block out of nowhere");
  }
}
