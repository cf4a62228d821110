package org.tropos.om.scm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SmallKeyBlocks;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.ScmResult;

/**
 * The OM's calls to SCM's block service: new blocks for keys being written, where containers are for lookups,
 * and blocks of deleted keys. SCM's failures become OM results the client understands (retriable
 * SCM_UNAVAILABLE, or the reason).
 */
public final class ScmBlocks implements AutoCloseable {
  /**
   * How long an allocation waits for SCM to have somewhere to put the block. A new SCM leader, or an SCM just
   * started, has pipelines only once the datanodes have registered with it (a heartbeat or two); a write should
   * wait that out rather than fail.
   */
  private static final Duration ALLOCATION_WAIT = Duration.ofSeconds(20);
  private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
  /** Short: after an SCM failover the datanodes register within moments, and a write waits for them. */
  private static final Duration LONGEST_PAUSE = Duration.ofMillis(500);

  private final ScmBlockClient scm;
  private final Clock clock;
  private final ContainerLocations locations;
  private final BlockPool pool;

  /**
   * @param addresses SCM's block service, on each SCM of an HA service
   * @param locationTtl how long a container's location from SCM answers lookups (zero: never kept)
   * @param locationsKept most container locations kept
   */
  public ScmBlocks(List<HostPort> addresses, TransportSecurity transport, Clock clock, Duration locationTtl,
      int locationsKept) {
    this.scm = new ScmBlockClient(addresses, transport);
    this.clock = clock;
    this.locations = new ContainerLocations(clock, locationTtl, locationsKept);
    this.pool = new BlockPool(clock, (count, size, factor) -> whileRetriable("allocate blocks",
        () -> scm.allocateBlocks(count, size, factor, ExcludeList.getDefaultInstance())));
  }

  /**
   * A new block; while SCM has nowhere to put it (a retriable failure), tries again for a bounded time. The first
   * block of a small key comes from the blocks allocated ahead ({@link BlockPool}); a writer asking again after a
   * failure (an exclude list) gets a fresh one, and the pooled blocks on what failed it are dropped.
   */
  public AllocateBlockResponse allocate(long size, ReplicationFactor factor, ExcludeList exclude)
      throws OmException {
    if (!exclude.equals(ExcludeList.getDefaultInstance())) {
      pool.drop(exclude);
    } else if (SmallKeyBlocks.isSmall(size)) {
      return pool.take(size, factor);
    }
    return whileRetriable("allocate a block", () -> scm.allocateBlock(size, factor, exclude));
  }

  /** A new erasure-coded block group of {@code size} bytes of data, retried as {@link #allocate} is. */
  public AllocateBlockResponse allocateGroup(long size, EcReplication config, ExcludeList exclude)
      throws OmException {
    return whileRetriable("allocate a block group", () -> scm.allocateEcBlock(size, config, exclude));
  }

  /**
   * {@code count} blocks for keys of at most {@code size} bytes, from the blocks allocated ahead: a writer of many
   * small keys takes them in one call and opens each key with its commit.
   */
  public List<AllocateBlockResponse> lease(int count, long size, ReplicationFactor factor) throws OmException {
    if (!SmallKeyBlocks.isSmall(size) || factor == ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED || count <= 0
        || count > BlockPool.LARGEST_BATCH) {
      throw new OmException(OmResult.INVALID_REQUEST, "blocks are leased for keys of 1 byte to "
          + SmallKeyBlocks.LARGEST + " bytes, of a named replication factor, 1 to " + BlockPool.LARGEST_BATCH
          + " at a time");
    }
    List<AllocateBlockResponse> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      blocks.add(pool.take(size, factor));
    }
    return blocks;
  }

  /** A call to SCM. */
  private interface ScmCall<T> {
    T call() throws ScmException;
  }

  private <T> T whileRetriable(String what, ScmCall<T> call) throws OmException {
    long giveUpAt = clock.monotonicMillis() + ALLOCATION_WAIT.toMillis();
    Duration pause = FIRST_PAUSE;
    while (true) {
      try {
        return call.call();
      } catch (ScmException e) {
        if (!e.isRetriable() || clock.monotonicMillis() + pause.toMillis() > giveUpAt) {
          throw translate(what, e);
        }
      }
      try {
        clock.pause(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new OmException(OmResult.SCM_UNAVAILABLE, "interrupted while waiting for SCM to " + what);
      }
      pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
    }
  }

  /** Where containers are, replicas nearest to {@code clientHost} first (as SCM said at most the TTL ago). */
  public List<ContainerInfo> containers(List<Long> ids, String clientHost) throws OmException {
    try {
      return locations.get(ids, clientHost, scm::containers);
    } catch (ScmException e) {
      throw translate("locate containers", e);
    }
  }

  /** Hands deleted keys' blocks to SCM; returns the key ids it recorded durably. */
  public Set<String> deleteKeyBlocks(List<KeyBlocks> keys) throws OmException {
    try {
      return scm.deleteKeyBlocks(keys);
    } catch (ScmException e) {
      throw translate("take deleted blocks", e);
    }
  }

  private static OmException translate(String what, ScmException e) {
    OmResult result = e.isRetriable() ? OmResult.SCM_UNAVAILABLE
        : e.result() == ScmResult.NO_SPACE ? OmResult.NO_SPACE : OmResult.INTERNAL_ERROR;
    return new OmException(result, "SCM could not " + what + ": " + e.getMessage());
  }

  @Override
  public void close() {
    scm.close();
  }
}
