package org.tropos.scm.container;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.DataSize;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.net.RackResolver;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ContainerInfo;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeEvents;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.node.NodeStatus;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.pipeline.PipelineRenewer;
import org.tropos.scm.pipeline.PipelineView;

/**
 * Containers (ARCHITECTURE.md, "Write path"): blocks are allocated into OPEN containers ({@link BlockAllocator}).
 * A container whose allocations reach ozone.scm.container.size is CLOSING: it takes no more blocks, and SCM asks
 * its pipeline's leader to close it through the Raft group (again at every {@link #closeContainers()} until every
 * replica reports CLOSED, which makes it CLOSED). A container whose pipeline is lost becomes QUASI_CLOSED and each
 * member closes its own replica. Replicas are known from the datanodes' container reports ({@link ReplicaMap}).
 * Containers are persisted with their block id counter, so ids are never reused across restarts
 * ({@link ContainerTable}). Erasure-coded containers have no pipeline: {@link EcBlockAllocator} and
 * {@link EcContainers}.
 *
 * <p>Thread-safety: all state is guarded by the manager's monitor. Lock order: this, then the pipeline manager's,
 * then the node manager's.
 */
public final class ContainerManager implements NodeEvents, PipelineRenewer.Containers {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerManager.class);

  private final ContainerTable table;
  private final BlockAllocator allocator;
  private final EcBlockAllocator ecAllocator;
  private final EcContainers ec;
  private final ContainerCloser closer;
  /** Told when containers turn CLOSED (see {@link #onClosed}). */
  private Runnable closed = () -> { };
  private final PipelineManager pipelines;
  private final NodeManager nodes;
  private final RackResolver racks;
  private final CommandQueue commands;
  private final ReplicaMap replicas = new ReplicaMap();
  private final ReplicaMarks marks;
  /** The pipelines each datanode hosted at its last heartbeat since SCM started (in memory). */
  private final Map<UUID, Set<UUID>> hostedPipelines = new HashMap<>();

  public ContainerManager(ScmDb db, PipelineManager pipelines, NodeManager nodes, CommandQueue commands,
      RackResolver racks, DataSize containerSize, DataSize blockSize) {
    this.commands = commands;
    this.table = new ContainerTable(db);
    this.marks = new ReplicaMarks(table);
    this.pipelines = pipelines;
    this.nodes = nodes;
    this.racks = racks;
    this.allocator = new BlockAllocator(table, pipelines, nodes, containerSize.bytes(), blockSize.bytes());
    this.ecAllocator = new EcBlockAllocator(table, nodes, containerSize.bytes(), blockSize.bytes());
    this.ec = new EcContainers(table, replicas, nodes);
    this.closer = new ContainerCloser(table, pipelines, commands);
  }

  public synchronized void load() throws IOException {
    table.load();
  }

  /**
   * A new block of up to {@code size} bytes, and the pipeline to write it through ({@link BlockAllocator}).
   */
  public synchronized Allocation allocateBlock(long size, ReplicationFactor factor, ExcludeList exclude)
      throws ScmException {
    return allocator.allocateBlock(size, factor, exclude);
  }

  /** Up to {@code count} blocks at once (fewer when the pipelines' open containers run out of room). */
  public synchronized List<Allocation> allocateBlocks(int count, long size, ReplicationFactor factor,
      ExcludeList exclude) throws ScmException {
    return allocator.allocateBlocks(count, size, factor, exclude);
  }

  /** A new erasure-coded block group of {@code size} bytes of data ({@link EcBlockAllocator}). */
  public synchronized Allocation allocateEcBlock(long size, EcReplication config, ExcludeList exclude)
      throws ScmException {
    return ecAllocator.allocate(size, config, exclude);
  }

  /**
   * A block and the pipeline it is to be written through; for an erasure-coded block group ({@code ec} set) its
   * datanodes in replica-index order, as a pipeline with no Raft group.
   */
  public record Allocation(BlockId block, PipelineView pipeline, EcReplication ec) {
  }

  /** Whether blocks of replication {@code factor} are refused for want of room on the datanodes (NO_SPACE). */
  public boolean shortOfRoom(ReplicationFactor factor) {
    return allocator.shortOfRoom(factor);
  }

  /** Whether a block of replication {@code factor} would be allocated now: an OPEN pipeline of that size exists. */
  public synchronized boolean canAllocate(ReplicationFactor factor) {
    return allocator.canAllocate(factor);
  }

  /** Where the containers are: replicas nearest to {@code clientHost} first, reported-bad ones last. */
  public synchronized List<ContainerInfo> containers(List<Long> ids, String clientHost) throws ScmException {
    List<ContainerInfo> result = new ArrayList<>();
    String clientRack = clientHost.isEmpty() ? "" : racks.resolve(clientHost, clientHost);
    for (long id : ids) {
      ContainerRecord c = table.get(id);
      if (c == null) {
        throw new ScmException(ScmResult.CONTAINER_NOT_FOUND, "no container " + id);
      }
      if (c.hasEc()) {
        result.add(ec.info(c));
        continue;
      }
      List<NodeStatus> holders = new ArrayList<>();
      for (UUID holder : holdersOf(c)) {
        nodes.node(holder).ifPresent(holders::add);
      }
      result.add(ContainerInfo.newBuilder().setContainerId(id).setState(c.getState())
          .setPipelineId(c.getPipelineId())
          .addAllReplicas(ReplicaReadOrder.order(holders, c, clientHost, clientRack)).build());
    }
    return result;
  }

  /**
   * The datanodes that hold, or may hold, a replica of a container (see {@link #holdersOf}), each with the
   * incarnation of the replica it reported (0 if none yet; a replica that went and came back is a new one). Empty
   * if SCM does not know the container.
   */
  public synchronized Optional<Map<UUID, Long>> replicaHolders(long containerId) {
    ContainerRecord c = table.get(containerId);
    if (c == null) {
      return Optional.empty();
    }
    Map<UUID, Long> holders = new LinkedHashMap<>();
    holdersOf(c).forEach(h -> holders.put(h, replicas.incarnation(containerId, h)));
    return Optional.of(holders);
  }

  /**
   * The datanodes that reported a replica; while the container is written (or before any replica is reported,
   * as after an SCM restart) also its pipeline's members. A closed container's replicas move as replication
   * copies and deletes them, so its members alone may no longer hold it.
   */
  private List<UUID> holdersOf(ContainerRecord c) {
    Set<UUID> holders = new java.util.LinkedHashSet<>(replicas.of(c.getContainerId()).keySet());
    if (isWritten(c) || holders.isEmpty()) {
      c.getMembersList().forEach(m -> holders.add(Uuids.fromProto(m)));
    }
    return List.copyOf(holders);
  }

  /** Records which pipelines the datanode hosts: a member no longer in one applies none of its writes. */
  @Override
  public synchronized void pipelinesReported(UUID datanode, List<PipelineReport> reports) {
    hostedPipelines.put(datanode, reports.stream().map(r -> Uuids.fromProto(r.getPipelineId().getId()))
        .collect(Collectors.toSet()));
  }

  /**
   * Records a datanode's full report: a CLOSING container closed on every member is CLOSED; a replica first heard
   * of that missed deletions SCM forgot is marked behind on them; a replica it no longer reports is gone, and the
   * marks of a corrupt or behind replica go with it.
   */
  @Override
  public synchronized void containersReported(UUID datanode, List<ContainerReport> reports) {
    Set<Long> known = Set.copyOf(replicas.reportedBy(datanode));
    Set<Long> gone = replicas.replace(datanode, reports, table.ids());
    boolean anyClosed = false;
    for (ContainerReport report : reports) {
      ContainerRecord c = table.get(report.getContainerId());
      if (c != null && (!c.getReplicaReported() || report.getBcsid() > c.getHighestBcsid())) {
        c = withReport(c, report.getBcsid());
      }
      if (c != null && !known.contains(c.getContainerId())) {
        c = marks.firstHeard(c, datanode, report);
      }
      if (c != null && c.getState() == ContainerState.CONTAINER_CLOSING && allReplicasClosed(c)) {
        table.saveQuietly(ContainerStates.moved(c, ContainerState.CONTAINER_CLOSED));
        LOG.info("Container {} is CLOSED on every replica", c.getContainerId());
        anyClosed = true;
      }
      if (c != null && isWritten(c) && report.getState() == ContainerState.CONTAINER_UNHEALTHY) {
        if (c.hasEc()) {
          if (ec.close(c, "datanode " + datanode + " reports its replica UNHEALTHY")) {
            closer.close(Set.of(c.getContainerId()));
          }
        } else {
          closeFailedPipeline(c, datanode);
        }
      }
    }
    for (long id : gone) {
      LOG.info("Datanode {} no longer holds a replica of container {}", datanode, id);
      marks.gone(table.get(id), datanode);
    }
    if (anyClosed) {
      closed.run();
    }
  }

  /**
   * Calls {@code listener} when a report turns containers CLOSED: replication may act on them (a closed container
   * missing a replica or an index) without waiting for its next round. It must return at once.
   */
  public synchronized void onClosed(Runnable listener) {
    this.closed = listener;
  }

  /**
   * A DEAD datanode's replicas are gone until it reports them again; replication replaces them meanwhile. Not so
   * for a node in maintenance: it was stopped on purpose and comes back with them.
   */
  @Override
  public synchronized void stateChanged(UUID datanode, NodeState from, NodeState to) {
    if (to == NodeState.DEAD && !nodes.node(datanode).map(NodeStatus::inMaintenance).orElse(false)) {
      depart(datanode);
    }
    if (to == NodeState.DEAD) {
      // Closed at once, not after the grace a full container gets: no write to them can succeed any more.
      closer.close(ec.memberDead(datanode));
    }
  }

  /** Stops counting a DEAD node's replicas, remembering them should deletions finish while they are away. */
  private void depart(UUID datanode) {
    List<ContainerRecord> marked = new ArrayList<>();
    for (long id : replicas.replace(datanode, List.of(), table.ids())) {
      Optional.ofNullable(marks.departed(table.get(id), datanode)).ifPresent(marked::add);
    }
    table.saveAllQuietly(marked);
  }

  /**
   * A replica failed while its container is written: its member stopped applying the pipeline's log (fail-stop),
   * so the pipeline is closed; its containers QUASI_CLOSE and close by the other members' replicas.
   */
  private void closeFailedPipeline(ContainerRecord c, UUID datanode) {
    UUID pipeline = Uuids.fromProto(c.getPipelineId().getId());
    try {
      pipelines.close(pipeline, "datanode " + datanode + " reports its replica of container " + c.getContainerId()
          + " UNHEALTHY");
    } catch (ScmException e) {
      LOG.debug("Pipeline {} was already gone: {}", pipeline, e.getMessage());
    }
  }

  private static boolean isWritten(ContainerRecord c) {
    return c.getState() == ContainerState.CONTAINER_OPEN || c.getState() == ContainerState.CONTAINER_CLOSING;
  }

  /** A DEAD node leaving maintenance no longer keeps its replicas: it is not known to come back. */
  @Override
  public synchronized void operationalStateChanged(UUID datanode, NodeOperationalState from,
      NodeOperationalState to) {
    if (nodes.node(datanode).map(n -> n.state() == NodeState.DEAD && !n.inMaintenance()).orElse(false)) {
      depart(datanode);
    }
  }

  /** Whether every member reported its replica CLOSED (see {@link EcContainers#closed} for an EC container). */
  private boolean allReplicasClosed(ContainerRecord c) {
    if (c.hasEc()) {
      return ec.closed(c);
    }
    Map<UUID, ContainerReport> reported = replicas.of(c.getContainerId());
    return c.getMembersList().stream().allMatch(m -> {
      ContainerReport r = reported.get(Uuids.fromProto(m));
      return r != null && r.getState() == ContainerState.CONTAINER_CLOSED;
    });
  }

  /** Every container with its reported replicas, for replication. */
  public synchronized List<ContainerView> replicationViews() {
    List<ContainerView> views = new ArrayList<>(table.all().size());
    for (ContainerRecord c : table.all()) {
      if (c.hasEc()) {
        // Not replicated: a lost index is rebuilt from the others by reconstruction, never copied from a peer.
        continue;
      }
      List<Replica> reported = new ArrayList<>();
      replicas.of(c.getContainerId()).forEach((node, r) -> reported.add(new Replica(node, r.getState(),
          r.getBcsid(), r.getUsedBytes(), c.getBadReplicasList().contains(Uuids.toProto(node)),
          c.getBehindOnDeletionsList().contains(Uuids.toProto(node)))));
      List<UUID> members = c.getMembersList().stream().map(Uuids::fromProto).toList();
      UUID pipeline = Uuids.fromProto(c.getPipelineId().getId());
      Set<UUID> outOfPipeline = members.stream().filter(m -> hostedPipelines.containsKey(m)
          && !hostedPipelines.get(m).contains(pipeline)).collect(Collectors.toSet());
      views.add(new ContainerView(c.getContainerId(), c.getState(), c.getMembersCount(), members, reported,
          c.getReplicaReported(), c.getHighestBcsid(), outOfPipeline));
    }
    return views;
  }

  /** Every erasure-coded container with its reported replicas, for reconstruction. */
  public synchronized List<EcContainerView> ecViews() {
    return ec.views();
  }

  /**
   * Records that every replica SCM knows of the container carried out its deletion transaction {@code txId}, which
   * SCM now forgets; a replica that reports less was away meanwhile (see {@link Replica#behindOnDeletions}).
   */
  public synchronized void deletionsDone(long containerId, long txId) {
    ContainerRecord c = table.get(containerId);
    if (c != null) {
      marks.deletionDone(c, txId);
    }
  }

  /** The last report of each replica of a container, by datanode (for admin views). */
  public synchronized Map<UUID, ContainerReport> replicaReports(long containerId) {
    return Map.copyOf(replicas.of(containerId));
  }

  /**
   * Forgets a container that was never written: QUASI_CLOSED (its pipeline is gone, so nothing can write to it any
   * more) and no replica of it was ever reported. Its blocks were allocated but no byte reached a datanode, so no
   * key refers to it; left alone it would count as MISSING for ever.
   */
  public synchronized void forgetEmpty(long containerId) {
    ContainerRecord c = table.get(containerId);
    if (c == null || c.getState() != ContainerState.CONTAINER_QUASI_CLOSED || c.getReplicaReported()
        || !replicas.of(containerId).isEmpty()) {
      return;
    }
    try {
      table.forget(containerId);
    } catch (IOException e) {
      LOG.warn("Cannot forget container {} (retried at the next round): {}", containerId, e.getMessage());
      return;
    }
    LOG.info("Container {} was never written (no replica was ever reported, its pipeline is gone): forgotten",
        containerId);
  }

  /** A QUASI_CLOSED container has a CLOSED replica holding every committed write: it is CLOSED. */
  public synchronized void markClosed(long containerId) {
    ContainerRecord c = table.get(containerId);
    if (c != null && c.getState() == ContainerState.CONTAINER_QUASI_CLOSED) {
      table.saveQuietly(ContainerStates.moved(c, ContainerState.CONTAINER_CLOSED));
      LOG.info("Container {} is CLOSED: a replica closed with its highest committed write", containerId);
    }
  }


  /** The periodic round of {@link ContainerCloser#closeFullContainers}. */
  public synchronized void closeFullContainers() {
    closer.closeFullContainers();
  }

  /** Asks for every CLOSING container to be closed ({@link ContainerCloser}); repeated until done. */
  public synchronized void closeContainers() {
    closer.closeContainers();
  }

  @Override
  public synchronized boolean writing(UUID pipeline) {
    return table.all().stream().anyMatch(c -> isWritten(c)
        && Uuids.fromProto(c.getPipelineId().getId()).equals(pipeline));
  }

  /** Makes every OPEN container on the pipeline CLOSING: its leader closes them through the Raft group. */
  @Override
  public synchronized void closeAll(UUID pipeline) {
    for (ContainerRecord c : List.copyOf(table.all())) {
      if (c.getState() == ContainerState.CONTAINER_OPEN
          && Uuids.fromProto(c.getPipelineId().getId()).equals(pipeline)) {
        table.saveQuietly(ContainerStates.moved(c, ContainerState.CONTAINER_CLOSING));
        LOG.info("Container {} is CLOSING: its pipeline {} is being replaced", c.getContainerId(), pipeline);
      }
    }
    closeContainers();
  }

  /** The pipeline is gone: its open containers become QUASI_CLOSED and each member closes its own replica. */
  public synchronized void pipelineClosed(UUID pipeline, List<UUID> members) {
    for (ContainerRecord c : List.copyOf(table.all())) {
      boolean onIt = Uuids.fromProto(c.getPipelineId().getId()).equals(pipeline);
      if (onIt && (c.getState() == ContainerState.CONTAINER_OPEN
          || c.getState() == ContainerState.CONTAINER_CLOSING)) {
        table.saveQuietly(ContainerStates.moved(c, ContainerState.CONTAINER_QUASI_CLOSED));
        members.forEach(m -> commands.add(m, ContainerCloser.closeCommand(c, true)));
        LOG.info("Container {} is QUASI_CLOSED: its pipeline {} is gone", c.getContainerId(), pipeline);
      }
    }
  }

  /**
   * Records that a replica was reported and the highest bcsid seen. While the container is OPEN every report of a
   * written replica raises it, so it is kept in memory then, like allocated bytes, and stored with the state change
   * (a synced, in HA replicated, write per report under this lock would hold up allocation); once it has left
   * OPEN it is stored at once.
   */
  private ContainerRecord withReport(ContainerRecord c, long bcsid) {
    ContainerRecord updated = c.toBuilder().setReplicaReported(true)
        .setHighestBcsid(Math.max(bcsid, c.getHighestBcsid())).build();
    if (!c.getReplicaReported() || c.getState() != ContainerState.CONTAINER_OPEN) {
      table.saveQuietly(updated);
    } else {
      table.keepInMemory(updated);
    }
    return updated;
  }


  /** Whether the datanode has reported its replicas since SCM started (before that, what it holds is unknown). */
  public synchronized boolean hasReported(UUID datanode) {
    return replicas.hasReport(datanode);
  }

  /** Every container id SCM knows. */
  public synchronized List<Long> ids() {
    return List.copyOf(table.ids());
  }

  /** SCM's view of a container, for tests and admin views. */
  public synchronized ContainerRecord container(long id) {
    return table.get(id);
  }

  /** Records a replica a reader found corrupt; it is offered last from now on (repair comes with replication). */
  public synchronized void reportBadReplica(BlockId block, UUID datanode, String reason) throws ScmException {
    ContainerRecord c = table.get(block.getContainerId());
    if (c == null) {
      throw new ScmException(ScmResult.CONTAINER_NOT_FOUND, "no container " + block.getContainerId());
    }
    LOG.warn("Replica of container {} on datanode {} reported bad (block {}): {}", block.getContainerId(), datanode,
        block.getLocalId(), reason);
    if (!c.getBadReplicasList().contains(Uuids.toProto(datanode))) {
      table.save(c.toBuilder().addBadReplicas(Uuids.toProto(datanode)).build());
    }
  }

  /** Bad replicas recorded for a container (for tests and admin views). */
  public synchronized List<UUID> badReplicas(long containerId) {
    ContainerRecord c = table.get(containerId);
    return c == null ? List.of() : c.getBadReplicasList().stream().map(Uuids::fromProto).toList();
  }
}
