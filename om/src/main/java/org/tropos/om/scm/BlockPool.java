package org.tropos.om.scm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.tropos.common.rpc.Excluded;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SmallKeyBlocks;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Blocks allocated ahead for small keys, so that opening one does not wait for SCM: one AllocateBlocks call
 * serves a batch of keys. A small PUT made a call to SCM for its block each time, one of the few RPCs a PUT
 * costs (docs/design.md, "Blocks ahead for small keys"). A batch starts at {@link #FIRST_BATCH} blocks and doubles,
 * up to {@link #LARGEST_BATCH}, while each is used up within {@link #QUICKLY}: at 350 small PUTs a second,
 * batches of 16 cost 3 % of a PUT's CPU in the OM and SCM. A batch whose blocks grow too old halves the next, so
 * an idle bucket does not keep container space allocated for nothing.
 *
 * <p>Sizes are rounded up to a power of two ({@link SmallKeyBlocks}), each size its own batch. A block waits at
 * most {@link #MAX_AGE}, since its container may fill up or its pipeline close meanwhile.
 * A writer that still gets such a block fails over to a freshly allocated one, as after any failed write, and the
 * blocks pooled on what failed it are dropped ({@link #drop}).
 *
 * <p>Thread-safe; a caller that finds its batch empty fetches the next one while the others of that size wait.
 */
final class BlockPool {
  static final int FIRST_BATCH = 16;
  static final int LARGEST_BATCH = 128;
  static final Duration QUICKLY = Duration.ofSeconds(1);
  static final Duration MAX_AGE = Duration.ofSeconds(10);

  /** Where blocks come from: SCM's AllocateBlocks. */
  interface Source {
    List<AllocateBlockResponse> allocate(int count, long size, ReplicationFactor factor) throws OmException;
  }

  private record Kind(ReplicationFactor factor, long size) {
  }

  private record Pooled(AllocateBlockResponse block, long allocatedAt) {
  }

  /** The blocks of one kind, and how many the next call to SCM asks for. Guarded by itself. */
  private static final class Pool {
    final Deque<Pooled> blocks = new ArrayDeque<>();
    int batch = FIRST_BATCH;
    boolean fetched;
    long fetchedAt;
  }

  private final Clock clock;
  private final Source source;
  private final Map<Kind, Pool> pools = new ConcurrentHashMap<>();

  BlockPool(Clock clock, Source source) {
    this.clock = clock;
    this.source = source;
  }

  /** A block for a key of {@code size} bytes ({@link SmallKeyBlocks#isSmall} must hold). */
  AllocateBlockResponse take(long size, ReplicationFactor factor) throws OmException {
    Kind kind = new Kind(factor, SmallKeyBlocks.sizeClass(size));
    Pool pool = pools.computeIfAbsent(kind, k -> new Pool());
    synchronized (pool) {
      long now = clock.monotonicMillis();
      boolean expired = false;
      for (Pooled p = pool.blocks.pollFirst(); p != null; p = pool.blocks.pollFirst()) {
        if (p.allocatedAt() >= now - MAX_AGE.toMillis()) {
          return p.block();
        }
        expired = true;
      }
      if (expired) {
        pool.batch = Math.max(FIRST_BATCH, pool.batch / 2);
      } else if (pool.fetched && now - pool.fetchedAt < QUICKLY.toMillis()) {
        pool.batch = Math.min(LARGEST_BATCH, pool.batch * 2);
      }
      List<AllocateBlockResponse> fetched = source.allocate(pool.batch, kind.size(), factor);
      if (fetched.isEmpty()) {
        throw new OmException(OmResult.SCM_UNAVAILABLE, "SCM allocated no block");
      }
      pool.fetched = true;
      pool.fetchedAt = clock.monotonicMillis();
      fetched.subList(1, fetched.size()).forEach(b -> pool.blocks.addLast(new Pooled(b, pool.fetchedAt)));
      return fetched.get(0);
    }
  }

  /** Drops the pooled blocks on what a writer failed with: its excluded pipelines, containers and datanodes. */
  void drop(ExcludeList failed) {
    Predicate<AllocateBlockResponse> excluded = Excluded.by(failed);
    for (Pool pool : pools.values()) {
      synchronized (pool) {
        pool.blocks.removeIf(p -> excluded.test(p.block()));
      }
    }
  }
}
