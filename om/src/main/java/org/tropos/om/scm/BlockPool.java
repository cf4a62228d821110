package org.tropos.om.scm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.hdds.Uuid;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Blocks allocated ahead for small keys, so that opening one does not wait for SCM: one AllocateBlocks call
 * serves {@link #BATCH} keys. A small PUT made a call to SCM for its block each time, one of the few RPCs a PUT
 * costs (docs/design.md, "Blocks ahead for small keys").
 *
 * <p>SCM counts a block's expected size against its container, so sizes are rounded up to a power of two (64 KB
 * up to {@link #LARGEST_POOLED}), each size its own batch: a pooled block is counted at most twice the bytes it
 * gets. A block waits at most {@link #MAX_AGE}, since its container may fill up or its pipeline close meanwhile.
 * A writer that still gets such a block fails over to a freshly allocated one, as after any failed write, and the
 * blocks pooled on what failed it are dropped ({@link #drop}).
 *
 * <p>Thread-safe; a caller that finds its batch empty fetches the next one while the others of that size wait.
 */
final class BlockPool {
  static final long LARGEST_POOLED = 1 << 20;
  static final int BATCH = 16;
  static final Duration MAX_AGE = Duration.ofSeconds(10);
  private static final long SMALLEST_SIZE = 64 << 10;

  /** Where blocks come from: SCM's AllocateBlocks. */
  interface Source {
    List<AllocateBlockResponse> allocate(int count, long size, ReplicationFactor factor) throws OmException;
  }

  private record Kind(ReplicationFactor factor, long size) {
  }

  private record Pooled(AllocateBlockResponse block, long allocatedAt) {
  }

  private final Clock clock;
  private final Source source;
  private final Map<Kind, Deque<Pooled>> pools = new ConcurrentHashMap<>();

  BlockPool(Clock clock, Source source) {
    this.clock = clock;
    this.source = source;
  }

  /** Whether a block for a key of {@code size} bytes comes from the pool. */
  static boolean pools(long size) {
    return size > 0 && size <= LARGEST_POOLED;
  }

  /** A block for a key of {@code size} bytes ({@link #pools} must hold). */
  AllocateBlockResponse take(long size, ReplicationFactor factor) throws OmException {
    Kind kind = new Kind(factor, Math.max(SMALLEST_SIZE, Long.highestOneBit(size - 1) << 1));
    Deque<Pooled> pool = pools.computeIfAbsent(kind, k -> new ArrayDeque<>());
    synchronized (pool) {
      long oldest = clock.monotonicMillis() - MAX_AGE.toMillis();
      for (Pooled p = pool.pollFirst(); p != null; p = pool.pollFirst()) {
        if (p.allocatedAt() >= oldest) {
          return p.block();
        }
      }
      List<AllocateBlockResponse> fetched = source.allocate(BATCH, kind.size(), factor);
      if (fetched.isEmpty()) {
        throw new OmException(OmResult.SCM_UNAVAILABLE, "SCM allocated no block");
      }
      long now = clock.monotonicMillis();
      fetched.subList(1, fetched.size()).forEach(b -> pool.addLast(new Pooled(b, now)));
      return fetched.get(0);
    }
  }

  /** Drops the pooled blocks on what a writer failed with: its excluded pipelines, containers and datanodes. */
  void drop(ExcludeList failed) {
    Set<PipelineId> pipelines = Set.copyOf(failed.getPipelinesList());
    Set<Long> containers = Set.copyOf(failed.getContainersList());
    Set<Uuid> datanodes = Set.copyOf(failed.getDatanodesList());
    for (Deque<Pooled> pool : pools.values()) {
      synchronized (pool) {
        pool.removeIf(p -> pipelines.contains(p.block().getPipeline().getId())
            || containers.contains(p.block().getBlockId().getContainerId())
            || p.block().getPipeline().getMembersList().stream()
                .anyMatch(m -> datanodes.contains(m.getDatanode().getUuid())));
      }
    }
  }
}
