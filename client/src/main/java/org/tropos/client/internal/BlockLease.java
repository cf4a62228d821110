package org.tropos.client.internal;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.Excluded;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SmallKeyBlocks;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Blocks leased from the OM ahead of the small keys a client writes, {@link #BATCH} at a time, so that each key
 * is opened with its commit: one OM call per key instead of two (OpenKey, then CommitKey). A block waits here at
 * most {@link #MAX_AGE}, since its container may fill up or its pipeline close meanwhile; a writer that still gets
 * such a block fails over as after any failed write. When the OM does not lease (an older OM, or it failed), the
 * lease is not asked again for {@link #PAUSE_AFTER_FAILURE} and writers open their keys first, as before.
 *
 * <p>Thread-safe; a writer that finds its kind of block used up leases the next batch while the others wait.
 */
public final class BlockLease {
  static final int BATCH = 32;
  static final Duration MAX_AGE = Duration.ofSeconds(5);
  static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(BlockLease.class);

  /** Where blocks come from: the OM's LeaseBlocks. */
  @FunctionalInterface
  public interface Source {
    List<AllocateBlockResponse> lease(ReplicationFactor factor, long size, int count)
        throws OmException;
  }

  private record Kind(ReplicationFactor factor, long size) {
  }

  private record Leased(AllocateBlockResponse block, long leasedAt) {
  }

  private final Clock clock;
  private final Source source;
  private final Map<Kind, Deque<Leased>> blocks = new ConcurrentHashMap<>();
  /** Before this (monotonic ms) nothing is leased: the last lease failed. */
  private volatile long pausedUntil = Long.MIN_VALUE;

  public BlockLease(Clock clock, Source source) {
    this.clock = clock;
    this.source = source;
  }

  /** A block for a small key of {@code size} bytes and {@code factor}; empty when none can be leased. */
  public Optional<AllocateBlockResponse> take(ReplicationFactor factor, long size) {
    if (!SmallKeyBlocks.isSmall(size) || factor == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED
        || clock.monotonicMillis() < pausedUntil) {
      return Optional.empty();
    }
    Kind kind = new Kind(factor, SmallKeyBlocks.sizeClass(size));
    Deque<Leased> leased = blocks.computeIfAbsent(kind, k -> new ArrayDeque<>());
    synchronized (leased) {
      long oldest = clock.monotonicMillis() - MAX_AGE.toMillis();
      for (Leased l = leased.pollFirst(); l != null; l = leased.pollFirst()) {
        if (l.leasedAt() >= oldest) {
          return Optional.of(l.block());
        }
      }
      List<AllocateBlockResponse> fetched;
      try {
        fetched = source.lease(factor, kind.size(), BATCH);
      } catch (OmException e) {
        pausedUntil = clock.monotonicMillis() + PAUSE_AFTER_FAILURE.toMillis();
        LOG.info("The OM leased no blocks ({}); keys are opened before they are written for the next {} s",
            e.getMessage(), PAUSE_AFTER_FAILURE.toSeconds());
        return Optional.empty();
      }
      if (fetched.isEmpty()) {
        return Optional.empty();
      }
      long now = clock.monotonicMillis();
      fetched.subList(1, fetched.size()).forEach(b -> leased.addLast(new Leased(b, now)));
      return Optional.of(fetched.get(0));
    }
  }

  /** Drops the leased blocks on what a writer failed with: its excluded pipelines, containers and datanodes. */
  public void drop(ExcludeList failed) {
    Predicate<AllocateBlockResponse> excluded = Excluded.by(failed);
    for (Deque<Leased> leased : blocks.values()) {
      synchronized (leased) {
        leased.removeIf(l -> excluded.test(l.block()));
      }
    }
  }
}
