package org.tropos.scm.container;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.proto.scm.db.PipelineRecord;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.pipeline.NodeCapacity;
import org.tropos.scm.pipeline.PipelineView;

/**
 * Block groups of erasure-coded containers (ARCHITECTURE.md, "Erasure coding"). An EC container has no pipeline:
 * the client writes each replica index straight to its member. Each config keeps about one OPEN container per
 * {@code units} usable datanodes, so concurrent writers spread over all of them; a group goes to the next of those
 * outside the writer's exclude list, in turn, and a new container is placed ({@link EcPlacement}) while there are
 * fewer. A container is full, and turns CLOSING, when its replicas could not take another whole group.
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class EcBlockAllocator {
  private static final Logger LOG = LoggerFactory.getLogger(EcBlockAllocator.class);

  private final ContainerTable table;
  private final NodeManager nodes;
  private final long containerBytes;
  private final long blockBytes;
  private long allocations;

  EcBlockAllocator(ContainerTable table, NodeManager nodes, long containerBytes, long blockBytes) {
    this.table = table;
    this.nodes = nodes;
    this.containerBytes = containerBytes;
    this.blockBytes = blockBytes;
  }

  /**
   * A new block group of {@code size} bytes of data: its id and its members in replica-index order. Each replica
   * takes at most ozone.scm.block.size, so a group holds up to that many bytes per data unit.
   */
  ContainerManager.Allocation allocate(long size, EcReplication config, ExcludeList exclude) throws ScmException {
    long largest = Math.min(blockBytes, containerBytes);
    if (size <= 0 || size > largest * config.data()) {
      throw new ScmException(ScmResult.INVALID_REQUEST, "an " + config + " block group holds 1 to "
          + largest * config.data() + " bytes (ozone.scm.block.size per data unit), not " + size);
    }
    long replicaBytes = config.layout().unitLength(0, size);
    Set<UUID> excludedNodes = exclude.getDatanodesList().stream().map(Uuids::fromProto).collect(Collectors.toSet());
    List<ContainerRecord> open = table.openEc(config.toProto());
    List<ContainerRecord> eligible = open.stream()
        .filter(c -> c.getAllocatedBytes() + replicaBytes <= containerBytes)
        .filter(c -> !exclude.getContainersList().contains(c.getContainerId()))
        .filter(c -> c.getMembersList().stream().noneMatch(m -> excludedNodes.contains(Uuids.fromProto(m))))
        .filter(c -> c.getMembersList().stream().allMatch(m -> usable(Uuids.fromProto(m))))
        .toList();
    ContainerRecord container = eligible.size() < wantedOpen(config)
        ? open(config, excludedNodes, eligible) : eligible.get((int) (allocations++ % eligible.size()));
    BlockId block = BlockAllocator.take(table, container, replicaBytes, containerBytes,
        config.layout().unitLength(0, largest * config.data()));
    return new ContainerManager.Allocation(block, groupOf(container), config);
  }

  /** OPEN containers a config keeps: one per {@code units} usable datanodes, at least one. */
  private int wantedOpen(EcReplication config) {
    long usable = nodes.nodes().stream().filter(NodeCapacity::canHoldData).count();
    return (int) Math.max(1, usable / config.units());
  }

  /** A new container; should too few datanodes be free of the exclude list, one of the eligible ones instead. */
  private ContainerRecord open(EcReplication config, Set<UUID> excluded, List<ContainerRecord> eligible)
      throws ScmException {
    try {
      ContainerRecord created = table.createEc(config.toProto(), EcPlacement.place(config, nodes.nodes(), excluded,
          openMemberships()));
      LOG.info("Erasure-coded container {} ({}) opened on {}", created.getContainerId(), config,
          created.getMembersList().stream().map(Uuids::fromProto).toList());
      return created;
    } catch (ScmException e) {
      if (eligible.isEmpty()) {
        throw e;
      }
      return eligible.get((int) (allocations++ % eligible.size()));
    }
  }

  private boolean usable(UUID member) {
    return nodes.node(member).map(NodeCapacity::canHoldData).orElse(false);
  }

  /** Per datanode, the OPEN erasure-coded containers it is a member of (a scan, done only to open a container). */
  private Map<UUID, Integer> openMemberships() {
    Map<UUID, Integer> load = new HashMap<>();
    for (ContainerRecord c : table.all()) {
      if (c.hasEc() && c.getState() == ContainerState.CONTAINER_OPEN) {
        c.getMembersList().forEach(m -> load.merge(Uuids.fromProto(m), 1, Integer::sum));
      }
    }
    return load;
  }

  /** The group's members as a pipeline-shaped view: no Raft group, so no id and no leader. */
  private PipelineView groupOf(ContainerRecord container) {
    List<PipelineView.Member> members = container.getMembersList().stream().map(Uuids::fromProto)
        .map(id -> new PipelineView.Member(id, nodes.node(id).orElse(null), null)).toList();
    return new PipelineView(PipelineRecord.newBuilder().setState(PipelineState.OPEN)
        .addAllMembers(container.getMembersList()).build(), members, null);
  }
}
