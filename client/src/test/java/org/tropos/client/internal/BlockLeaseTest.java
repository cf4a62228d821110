package org.tropos.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.ManualClock;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.hdds.Uuid;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.PipelineInfo;

class BlockLeaseTest {
  private static final ReplicationFactor THREE = ReplicationFactor.THREE;

  private final ManualClock clock = new ManualClock();
  /** Each lease asked of the OM: "count x size factor". */
  private final List<String> calls = new ArrayList<>();
  private long nextLocalId = 1;
  private boolean omFails;

  /** The OM's answer: blocks numbered in order, odd ones in container 11 on pipeline 1, even ones in 12 on 2. */
  private List<AllocateBlockResponse> om(ReplicationFactor factor, long size, int count) throws OmException {
    calls.add(count + " x " + size + " " + factor);
    if (omFails) {
      throw new OmException(OmResult.INTERNAL_ERROR, "UNIMPLEMENTED: method LeaseBlocks");
    }
    List<AllocateBlockResponse> blocks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long localId = nextLocalId++;
      int pipeline = (int) (localId % 2 == 1 ? 1 : 2);
      blocks.add(AllocateBlockResponse.newBuilder()
          .setPipeline(PipelineInfo.newBuilder().setId(PipelineId.newBuilder().setId(Uuid.newBuilder()
              .setLeastSignificantBits(pipeline))))
          .setBlockId(BlockId.newBuilder().setContainerId(10 + pipeline).setLocalId(localId)).build());
    }
    return blocks;
  }

  private final BlockLease lease = new BlockLease(clock, this::om);

  private long take(long size) {
    return lease.take(THREE, size).orElseThrow().getBlockId().getLocalId();
  }

  @Test
  void blocksAreLeasedABatchAtATimePerSizeClassAndFactor() {
    for (int i = 1; i <= BlockLease.BATCH + 1; i++) {
      assertEquals(i, take(100 << 10));
    }
    take(1);
    assertTrue(lease.take(ReplicationFactor.ONE, 100 << 10).isPresent());
    assertEquals(List.of(BlockLease.BATCH + " x 131072 THREE", BlockLease.BATCH + " x 131072 THREE",
        BlockLease.BATCH + " x 65536 THREE", BlockLease.BATCH + " x 131072 ONE"), calls);
  }

  @Test
  void onlySmallKeysOfANamedFactorGetLeasedBlocks() {
    assertTrue(lease.take(THREE, 0).isEmpty(), "empty: no block needed");
    assertTrue(lease.take(THREE, (1 << 20) + 1).isEmpty(), "larger than a small key");
    assertTrue(lease.take(ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED, 100).isEmpty(), "no factor");
    assertEquals(List.of(), calls);
  }

  @Test
  void blocksHeldTooLongAreNotHandedOut() {
    assertEquals(1, take(100));
    clock.advance(BlockLease.MAX_AGE.plusMillis(1));
    assertEquals(BlockLease.BATCH + 1, take(100), "the rest of the first batch expired");
    assertEquals(2, calls.size());
  }

  @Test
  void anOmThatDoesNotLeaseIsNotAskedAgainForAWhile() {
    omFails = true;
    assertTrue(lease.take(THREE, 100).isEmpty());
    assertTrue(lease.take(THREE, 100).isEmpty());
    assertEquals(1, calls.size());
    omFails = false;
    clock.advance(BlockLease.PAUSE_AFTER_FAILURE.plus(Duration.ofMillis(1)));
    assertEquals(1, take(100));
    assertEquals(2, calls.size());
  }

  @Test
  void blocksOnWhatAWriteFailedWithAreDropped() {
    assertEquals(1, take(100));
    lease.drop(ExcludeList.newBuilder().addContainers(12).build());
    for (long expected = 3; expected <= BlockLease.BATCH; expected += 2) {
      assertEquals(expected, take(100), "only container 11's blocks are left");
    }
    assertEquals(BlockLease.BATCH + 1, take(100));
  }
}
