package org.tropos.scm.container;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.pipeline.NodeCapacity;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.pipeline.PipelineView;

/**
 * Block allocation (ARCHITECTURE.md, "Write path"): a block goes to an OPEN pipeline outside the writer's exclude
 * list, chosen in turn so writes spread over pipelines, into an OPEN container of that pipeline with room for it
 * (a new container when none has). A container whose allocations reach ozone.scm.container.size turns CLOSING.
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class BlockAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(BlockAllocator.class);
  private static final long LOCAL_ID_RESERVE = 1000;

  private final ContainerTable table;
  private final PipelineManager pipelines;
  private final NodeManager nodes;
  private final long containerBytes;
  private final long blockBytes;
  private long allocations;

  BlockAllocator(ContainerTable table, PipelineManager pipelines, NodeManager nodes, long containerBytes,
      long blockBytes) {
    this.table = table;
    this.pipelines = pipelines;
    this.nodes = nodes;
    this.containerBytes = containerBytes;
    this.blockBytes = blockBytes;
  }

  /**
   * A new block of up to {@code size} bytes, and the pipeline to write it through. Block ids are reserved in the
   * database {@link #LOCAL_ID_RESERVE} at a time, so most allocations write nothing (a synced write per block
   * cost about 3 ms); after a restart allocation resumes at the end of the reservation: ids are skipped, never
   * reused. Allocated bytes are likewise saved with the next reservation or state change, so after a crash a
   * container may take a little more than its size before it is closed.
   */
  ContainerManager.Allocation allocateBlock(long size, ReplicationFactor factor, ExcludeList exclude)
      throws ScmException {
    return allocateBlock(size, eligibleOrRefuse(size, factor, exclude), exclude, true);
  }

  /** The OPEN pipelines a block of {@code size} bytes and replication {@code factor} may go to, or why none. */
  private List<PipelineView> eligibleOrRefuse(long size, ReplicationFactor factor, ExcludeList exclude)
      throws ScmException {
    if (size <= 0 || size > blockBytes) {
      throw new ScmException(ScmResult.INVALID_REQUEST, "a block holds 1 to " + blockBytes + " bytes"
          + " (ozone.scm.block.size), not " + size);
    }
    List<PipelineView> eligible = eligiblePipelines(factor, exclude);
    if (eligible.isEmpty() && shortOfRoom(factor)) {
      throw new ScmException(ScmResult.NO_SPACE, "no room for a RATIS/" + factor + " block: fewer than "
          + factor.getNumber() + " datanodes have a data volume with more free space than it keeps back"
          + " (hdds.datanode.volume.min.free.space)");
    }
    if (eligible.isEmpty()) {
      throw new ScmException(ScmResult.NO_PIPELINE_FOR_BLOCK, "no OPEN RATIS/" + factor + " pipeline outside the"
          + " exclude list " + describe(exclude));
    }
    return eligible;
  }

  /**
   * A block on one of the {@code eligible} pipelines, taking turns; with {@code mayOpen} false, null instead of a
   * block in a container opened for it.
   */
  private ContainerManager.Allocation allocateBlock(long size, List<PipelineView> eligible, ExcludeList exclude,
      boolean mayOpen) throws ScmException {
    PipelineView pipeline = eligible.get((int) (allocations++ % eligible.size()));
    ContainerRecord container = containerWithRoom(pipeline, size, exclude);
    if (container == null) {
      if (!mayOpen) {
        return null;
      }
      container = openContainer(pipeline);
    }
    return new ContainerManager.Allocation(take(table, container, size, containerBytes, Math.min(blockBytes,
        containerBytes)), pipeline, null);
  }

  /**
   * The next block id of {@code container}, which takes {@code bytes} more; a container that could not take
   * {@code largest} more bytes is full and turns CLOSING.
   */
  static BlockId take(ContainerTable table, ContainerRecord container, long bytes, long containerBytes,
      long largest) throws ScmException {
    long localId = container.getNextLocalId();
    ContainerRecord.Builder updated = container.toBuilder().setNextLocalId(localId + 1)
        .setAllocatedBytes(container.getAllocatedBytes() + bytes);
    // Full once it could not take another whole block: with blocks of varying sizes it would otherwise never
    // reach its size exactly and stay OPEN for ever beside the new containers opened for what did not fit.
    boolean full = containerBytes - updated.getAllocatedBytes() < largest;
    if (full) {
      ContainerStates.TABLE.check(Long.toString(container.getContainerId()), container.getState(),
          ContainerState.CONTAINER_CLOSING);
      updated.setState(ContainerState.CONTAINER_CLOSING);
      LOG.info("Container {} is full ({} bytes allocated): CLOSING", container.getContainerId(),
          updated.getAllocatedBytes());
    }
    long containerId = container.getContainerId();
    if (localId >= table.reservedUpTo(containerId)) {
      table.reserveUpTo(containerId, localId + LOCAL_ID_RESERVE);
      table.save(updated.build());
    } else if (full) {
      table.save(updated.build());
    } else {
      table.keepInMemory(updated.build());
    }
    return BlockId.newBuilder().setContainerId(containerId).setLocalId(localId).build();
  }

  /**
   * Up to {@code count} blocks, each as {@link #allocateBlock} gives one (so they take turns over the pipelines),
   * but only the first may open a container. A container exists on the datanodes only once a block of it is
   * written, and the first block goes to a writer at once; the others may wait unused, or be dropped, and a
   * container opened for them alone would be left with no replica anywhere when its pipeline closes (MISSING to
   * the replication manager for ever; the fault suite found them). So the batch stops where the next block would
   * need a new container. Fails only when not even the first could be allocated.
   */
  List<ContainerManager.Allocation> allocateBlocks(int count, long size, ReplicationFactor factor,
      ExcludeList exclude) throws ScmException {
    List<ContainerManager.Allocation> blocks = new ArrayList<>(count);
    // Once per batch: listing the pipelines again for each block was half of a batch's cost in SCM.
    List<PipelineView> eligible = eligibleOrRefuse(size, factor, exclude);
    blocks.add(allocateBlock(size, eligible, exclude, true));
    try {
      while (blocks.size() < count) {
        ContainerManager.Allocation next = allocateBlock(size, eligible, exclude, false);
        if (next == null) {
          break;
        }
        blocks.add(next);
      }
    } catch (ScmException e) {
      LOG.debug("Allocated {} of {} blocks: {}", blocks.size(), count, e.getMessage());
    }
    return blocks;
  }

  /** Whether blocks of replication {@code factor} are refused for want of room on the datanodes (NO_SPACE). */
  boolean shortOfRoom(ReplicationFactor factor) {
    return NodeCapacity.shortOfRoom(nodes.nodes(), factor.getNumber());
  }

  /** Whether a block of replication {@code factor} would be allocated now: an OPEN pipeline of that size exists. */
  boolean canAllocate(ReplicationFactor factor) {
    return !eligiblePipelines(factor, ExcludeList.getDefaultInstance()).isEmpty();
  }

  private List<PipelineView> eligiblePipelines(ReplicationFactor factor, ExcludeList exclude) {
    Set<UUID> badNodes = exclude.getDatanodesList().stream().map(Uuids::fromProto).collect(Collectors.toSet());
    Set<UUID> badPipelines = exclude.getPipelinesList().stream().map(p -> Uuids.fromProto(p.getId()))
        .collect(Collectors.toSet());
    return pipelines.list(PipelineState.OPEN).stream()
        .filter(p -> p.record().getFactor() == factor)
        .filter(p -> !badPipelines.contains(Uuids.fromProto(p.record().getId().getId())))
        .filter(p -> p.members().stream().noneMatch(m -> badNodes.contains(m.id())))
        .toList();
  }

  private ContainerRecord containerWithRoom(PipelineView pipeline, long size, ExcludeList exclude) {
    for (ContainerRecord c : table.openOn(Uuids.fromProto(pipeline.record().getId().getId()))) {
      if (c.getAllocatedBytes() + size <= containerBytes && !exclude.getContainersList().contains(
          c.getContainerId())) {
        return c;
      }
    }
    return null;
  }

  private ContainerRecord openContainer(PipelineView pipeline) throws ScmException {
    ContainerRecord created = table.create(pipeline.record());
    LOG.info("Container {} opened on pipeline {}", created.getContainerId(),
        Uuids.fromProto(pipeline.record().getId().getId()));
    return created;
  }


  private static String describe(ExcludeList exclude) {
    return "(" + exclude.getDatanodesCount() + " datanodes, " + exclude.getPipelinesCount() + " pipelines, "
        + exclude.getContainersCount() + " containers)";
  }
}
