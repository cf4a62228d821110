package org.tropos.scm.pipeline;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.ClosePipelineCommand;
import org.tropos.proto.scm.CreatePipelineCommand;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.TransferLeadershipCommand;
import org.tropos.proto.scm.db.PipelineRecord;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeEvents;
import org.tropos.scm.node.NodeManager;

/**
 * SCM's pipelines and their lifecycle: ALLOCATED when placed (members are told to form the Raft group), OPEN
 * once every member reports the group with one leader, DORMANT when an administrator deactivates it, and closed
 * (members told to leave; the record removed) by an administrator or when a member goes STALE. Pipelines are
 * persisted in SCM's database and reloaded on restart. A member that does not report a group it should host is
 * sent the create command again; a datanode reporting a group SCM does not know is told to leave it.
 *
 * <p>Thread-safety: all state is guarded by {@code lock}. Lock order: this lock, then the node manager's and the
 * command queue's; never the reverse (node events arrive without the node manager's lock).
 */
public final class PipelineManager implements NodeEvents {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineManager.class);

  private final Object lock = new Object();
  private final Map<UUID, TrackedPipeline> pipelines = new HashMap<>();
  private final ScmDb db;
  private final NodeManager nodes;
  private final CommandQueue commands;
  private final PipelineLimits limits;
  private final PipelinePlacementPolicy policy;
  private final PipelineRenewalPolicy renewal;
  private final Clock clock;
  private final long resendAfterMs;
  private final PipelineFiller filler;
  private final List<BiConsumer<UUID, List<UUID>>> closedListeners = new CopyOnWriteArrayList<>();
  /** Where new pipelines' ids come from: random, but for a seeded simulation that must replay exactly. */
  private Supplier<UUID> newIds = UUID::randomUUID;

  /**
   * @param singleReplicaPipelines whether every usable datanode gets a RATIS/ONE pipeline of its own
   * @param heartbeatInterval the datanodes' heartbeat interval: a create command is re-sent to a member that has
   *     not reported the group after three of them
   * @param background runs a fill after datanodes register, return to HEALTHY or leave (SCM's pipeline scheduler)
   */
  public PipelineManager(ScmDb db, NodeManager nodes, CommandQueue commands, PipelineLimits limits,
      boolean singleReplicaPipelines, Clock clock, Duration heartbeatInterval, ScheduledExecutorService background) {
    this.db = db;
    this.nodes = nodes;
    this.commands = commands;
    this.limits = limits;
    this.policy = new PipelinePlacementPolicy(limits);
    this.renewal = new PipelineRenewalPolicy(policy);
    this.clock = clock;
    this.resendAfterMs = Math.max(1000, 3 * heartbeatInterval.toMillis());
    this.filler = new PipelineFiller(this, singleReplicaPipelines
        ? List.of(ReplicationFactor.THREE, ReplicationFactor.ONE) : List.of(ReplicationFactor.THREE),
        Duration.ofMillis(Math.max(1000, 2 * heartbeatInterval.toMillis())), background);
  }

  /** Names new pipelines with {@code ids} instead of random ones; before the manager is used. */
  public PipelineManager namingWith(Supplier<UUID> ids) {
    this.newIds = ids;
    return this;
  }

  public void load() throws IOException {
    synchronized (lock) {
      for (PipelineRecord record : db.pipelines()) {
        TrackedPipeline p = new TrackedPipeline(record);
        pipelines.put(p.id, p);
      }
      LOG.info("SCM loaded {} pipelines from its database", pipelines.size());
    }
  }

  /** Places and allocates a new pipeline; its members form the Raft group on their next heartbeats. */
  public PipelineView create(ReplicationFactor factor) throws ScmException {
    synchronized (lock) {
      if (factor == ReplicationFactor.THREE && limits.clusterWide() > 0
          && live(ReplicationFactor.THREE).size() >= limits.clusterWide()) {
        throw new ScmException(ScmResult.PIPELINE_LIMIT_REACHED, "the cluster holds " + limits.clusterWide()
            + " RATIS/THREE pipelines, the most ozone.scm.ratis.pipeline.limit allows");
      }
      Placement placement = policy.place(factor, placementNodes(factor), usedSets(factor));
      UUID id = newIds.get();
      PipelineRecord record = PipelineRecord.newBuilder().setId(PipelineId.newBuilder().setId(Uuids.toProto(id)))
          .setFactor(factor).setState(PipelineState.ALLOCATED).setSuggestedLeader(Uuids.toProto(placement.leader()))
          .addAllMembers(placement.members().stream().map(Uuids::toProto).toList())
          .setCreatedEpochMs(clock.wallTime().toEpochMilli()).build();
      persist(record, id);
      TrackedPipeline p = new TrackedPipeline(record);
      pipelines.put(id, p);
      p.members.forEach(member -> sendCreate(p, member));
      LOG.info("Pipeline {} RATIS/{} allocated on {}; suggested leader {}", id, factor, describe(p.members),
          placement.leader());
      return view(p);
    }
  }

  /**
   * Creates RATIS/THREE pipelines until a limit or the cluster stops it, then (if enabled) a RATIS/ONE pipeline
   * on every usable datanode without one; returns how many were created.
   */
  public int fillToLimits() {
    return filler.fill();
  }

  /** Tells {@code listener} (pipeline id, members) of every closed pipeline, outside this manager's lock. */
  public void onClosed(BiConsumer<UUID, List<UUID>> listener) {
    closedListeners.add(listener);
  }

  /** Closes a pipeline: its members are told to leave the group and SCM forgets it. */
  public PipelineView close(UUID id, String reason) throws ScmException {
    PipelineView closed;
    List<UUID> members;
    synchronized (lock) {
      TrackedPipeline p = find(id);
      PipelineStates.TABLE.check(id.toString(), p.state(), PipelineState.CLOSED);
      closed = view(p).withState(PipelineState.CLOSED);
      try {
        db.deletePipeline(id);
      } catch (IOException e) {
        throw dbFailure(e);
      }
      pipelines.remove(id);
      members = p.members;
      p.members.forEach(member -> commands.add(member, closeCommand(id)));
      LOG.info("Pipeline {} closed: {}", id, reason);
    }
    closedListeners.forEach(l -> l.accept(id, members));
    return closed;
  }

  /** An OPEN pipeline to replace so pipelines follow the cluster (see {@link PipelineRenewalPolicy}), if any. */
  Optional<PipelineRenewalPolicy.Renewal> renewalCandidate() {
    synchronized (lock) {
      Map<UUID, List<UUID>> open = new HashMap<>();
      live(ReplicationFactor.THREE).stream().filter(p -> p.state() == PipelineState.OPEN)
          .forEach(p -> open.put(p.id, p.members));
      boolean roomInCluster = limits.clusterWide() == 0
          || live(ReplicationFactor.THREE).size() < limits.clusterWide();
      return renewal.choose(open, placementNodes(ReplicationFactor.THREE), roomInCluster);
    }
  }

  /** Whether SCM still tracks the pipeline (it is not closed). */
  public boolean exists(UUID id) {
    synchronized (lock) {
      return pipelines.containsKey(id);
    }
  }

  /** DORMANT → OPEN. */
  public PipelineView activate(UUID id) throws ScmException {
    return changeState(id, PipelineState.DORMANT, PipelineState.OPEN);
  }

  /** OPEN → DORMANT: the pipeline stays formed but takes no new containers. */
  public PipelineView deactivate(UUID id) throws ScmException {
    return changeState(id, PipelineState.OPEN, PipelineState.DORMANT);
  }

  private PipelineView changeState(UUID id, PipelineState from, PipelineState to) throws ScmException {
    synchronized (lock) {
      TrackedPipeline p = find(id);
      if (p.state() != from) {
        throw new ScmException(ScmResult.INVALID_PIPELINE_STATE, "pipeline " + id + " is " + p.state() + "; only a "
            + from + " pipeline can become " + to);
      }
      setState(p, to);
      return view(p);
    }
  }

  /** Every pipeline in {@code state} (UNSPECIFIED = all), oldest first. */
  public List<PipelineView> list(PipelineState state) {
    synchronized (lock) {
      return pipelines.values().stream().filter(p -> state == PipelineState.PIPELINE_STATE_UNSPECIFIED
          || p.state() == state).sorted(java.util.Comparator.comparingLong(p -> p.record.getCreatedEpochMs()))
          .map(this::view).toList();
    }
  }

  /** Per datanode: live pipelines it is in and how many of them it leads. */
  public Map<UUID, NodeLoad> loadPerNode() {
    synchronized (lock) {
      Map<UUID, NodeLoad> load = new HashMap<>();
      for (TrackedPipeline p : pipelines.values()) {
        UUID leader = p.leader();
        p.members.forEach(m -> load.merge(m, new NodeLoad(1, m.equals(leader) ? 1 : 0), NodeLoad::plus));
      }
      return load;
    }
  }

  /** Fills once registrations settle ({@link PipelineFiller}). */
  @Override
  public void registered(UUID datanode) {
    filler.fillOnceSettled();
  }

  /**
   * A member going STALE or DEAD loses its pipelines; one HEALTHY again gets new ones as soon as its peers settle,
   * not at the next periodic fill (two minutes by default): datanodes that all missed heartbeats together (a busy
   * host, a short partition) would otherwise leave the cluster without a pipeline for that long.
   */
  @Override
  public void stateChanged(UUID datanode, NodeState from, NodeState to) {
    if (to == NodeState.STALE || to == NodeState.DEAD) {
      closePipelinesOf(datanode, "member " + datanode + " is " + to);
    } else if (to == NodeState.HEALTHY) {
      filler.fillOnceSettled();
    }
  }

  /** A node leaving service loses its pipelines (it takes no new writes); one returning gets new ones. */
  @Override
  public void operationalStateChanged(UUID datanode, NodeOperationalState from, NodeOperationalState to) {
    if (to == NodeOperationalState.IN_SERVICE) {
      filler.fillSoon();
    } else if (from == NodeOperationalState.IN_SERVICE) {
      closePipelinesOf(datanode, "member " + datanode + " is " + to);
    }
  }

  private void closePipelinesOf(UUID datanode, String reason) {
    List<UUID> affected;
    synchronized (lock) {
      affected = pipelines.values().stream().filter(p -> p.isMember(datanode)).map(p -> p.id).toList();
    }
    for (UUID id : affected) {
      try {
        close(id, reason);
      } catch (ScmException e) {
        LOG.debug("Pipeline {} was already gone: {}", id, e.getMessage());
      }
    }
    filler.fillSoon();
  }

  /**
   * Also closes the pipelines of a member whose data volumes have no room left: its leaders refuse new writes, and
   * what its groups accepted must still fit in the space kept back (hdds.datanode.volume.min.free.space).
   */
  @Override
  public void pipelinesReported(UUID datanode, List<PipelineReport> reports) {
    boolean full = nodes.node(datanode).map(NodeCapacity::isFull).orElse(false);
    boolean inPipelines;
    synchronized (lock) {
      recordPipelineReports(datanode, reports);
      inPipelines = pipelines.values().stream().anyMatch(p -> p.isMember(datanode));
    }
    if (full && inPipelines) {
      closePipelinesOf(datanode, "member " + datanode + " has no data volume with room for new writes");
    }
  }

  private void recordPipelineReports(UUID datanode, List<PipelineReport> reports) {
    Set<UUID> hosted = new HashSet<>();
    for (PipelineReport report : reports) {
      UUID id = Uuids.fromProto(report.getPipelineId().getId());
      TrackedPipeline p = pipelines.get(id);
      if (p == null || !p.isMember(datanode)) {
        commands.add(datanode, closeCommand(id));
        continue;
      }
      hosted.add(id);
      p.reports.put(datanode, report);
      if (p.transferTarget != null && p.transferTarget.equals(p.leader())) {
        p.transferTarget = null;
      }
    }
    long now = clock.monotonicMillis();
    for (TrackedPipeline p : pipelines.values()) {
      if (p.isMember(datanode) && !hosted.contains(p.id)) {
        p.reports.remove(datanode);
        if (now - p.createSentAt.getOrDefault(datanode, 0L) >= resendAfterMs) {
          sendCreate(p, datanode);
        }
      }
      if (p.state() == PipelineState.ALLOCATED && p.isFormed()) {
        setState(p, PipelineState.OPEN);
        LOG.info("Pipeline {} is OPEN: leader {}, log dirs {}", p.id, p.leader(), logDirs(p));
      }
    }
  }

  /**
   * Plans and sends leadership transfers so every datanode leads its share of the OPEN pipelines. Waits while a
   * transfer is under way (or until it times out), so it never works against its own moves.
   */
  public int balanceLeaders() {
    synchronized (lock) {
      long now = clock.monotonicMillis();
      pipelines.values().stream().filter(p -> p.transferTarget != null && now > p.transferDeadline)
          .forEach(p -> p.transferTarget = null);
      if (pipelines.values().stream().anyMatch(p -> p.transferTarget != null)) {
        return 0;
      }
      List<LeaderBalancer.Leadership> open = new ArrayList<>();
      // A RATIS/ONE pipeline's only member leads it: nothing to move, and on every node alike.
      for (TrackedPipeline p : live(ReplicationFactor.THREE)) {
        if (p.state() != PipelineState.ALLOCATED && p.isFormed()) {
          open.add(new LeaderBalancer.Leadership(p.id, p.members, p.leader()));
        }
      }
      Map<UUID, Integer> weights = new HashMap<>();
      placementNodes(ReplicationFactor.THREE).forEach(n -> weights.put(n.id(), Math.max(1, limits.limitOf(n))));
      List<LeaderBalancer.Transfer> transfers = LeaderBalancer.plan(open, weights);
      for (LeaderBalancer.Transfer t : transfers) {
        TrackedPipeline p = pipelines.get(t.pipeline());
        p.transferTarget = t.to();
        p.transferDeadline = now + resendAfterMs + 10_000;
        commands.add(t.from(), ScmCommand.newBuilder().setTransferLeadership(TransferLeadershipCommand.newBuilder()
            .setPipelineId(p.record.getId()).setNewLeader(Uuids.toProto(t.to()))).build());
        LOG.info("Pipeline {}: moving leadership from {} to {} to even out leaders", p.id, t.from(), t.to());
      }
      return transfers.size();
    }
  }

  private List<PlacementNode> placementNodes(ReplicationFactor factor) {
    return PlacementNode.of(nodes.nodes(), live(factor));
  }

  private List<TrackedPipeline> live(ReplicationFactor factor) {
    return pipelines.values().stream().filter(p -> p.record.getFactor() == factor).toList();
  }

  /** How many pipelines of {@code factor} SCM tracks. */
  int countLive(ReplicationFactor factor) {
    synchronized (lock) {
      return live(factor).size();
    }
  }

  private Set<Set<UUID>> usedSets(ReplicationFactor factor) {
    Set<Set<UUID>> used = new HashSet<>();
    live(factor).forEach(p -> used.add(Set.copyOf(p.members)));
    return used;
  }

  private void sendCreate(TrackedPipeline p, UUID member) {
    CreatePipelineCommand.Builder create = CreatePipelineCommand.newBuilder().setPipelineId(p.record.getId())
        .setSuggestedLeader(p.record.getSuggestedLeader());
    for (UUID m : p.members) {
      nodes.node(m).ifPresent(n -> create.addMembers(n.details()));
    }
    if (create.getMembersCount() != p.members.size()) {
      return;
    }
    commands.add(member, ScmCommand.newBuilder().setCreatePipeline(create).build());
    p.createSentAt.put(member, clock.monotonicMillis());
  }

  private static ScmCommand closeCommand(UUID id) {
    return ScmCommand.newBuilder().setClosePipeline(ClosePipelineCommand.newBuilder()
        .setPipelineId(PipelineId.newBuilder().setId(Uuids.toProto(id)))).build();
  }

  private void setState(TrackedPipeline p, PipelineState state) {
    PipelineStates.TABLE.check(p.id.toString(), p.state(), state);
    PipelineRecord updated = p.record.toBuilder().setState(state).build();
    try {
      persist(updated, p.id);
      p.record = updated;
    } catch (ScmException e) {
      LOG.error("Pipeline {} stays {}: {}", p.id, p.state(), e.getMessage());
    }
  }

  private void persist(PipelineRecord record, UUID id) throws ScmException {
    try {
      db.putPipeline(record, id);
    } catch (IOException e) {
      throw dbFailure(e);
    }
  }

  private static ScmException dbFailure(IOException e) {
    LOG.error("SCM cannot update its pipeline table", e);
    return new ScmException(ScmResult.INTERNAL_ERROR, "SCM cannot update its pipeline table: " + e.getMessage());
  }

  private TrackedPipeline find(UUID id) throws ScmException {
    TrackedPipeline p = pipelines.get(id);
    if (p == null) {
      throw new ScmException(ScmResult.PIPELINE_NOT_FOUND, "no pipeline " + id);
    }
    return p;
  }

  private String describe(List<UUID> members) {
    List<String> parts = new ArrayList<>();
    for (UUID m : members) {
      parts.add(nodes.node(m).map(n -> n.details().getHostName() + n.details().getNetworkLocation())
          .orElse(m.toString()));
    }
    return String.join(", ", parts);
  }

  private static List<String> logDirs(TrackedPipeline p) {
    return p.reports.values().stream().map(PipelineReport::getLogDir).toList();
  }

  private PipelineView view(TrackedPipeline p) {
    List<PipelineView.Member> members = new ArrayList<>();
    for (UUID m : p.members) {
      members.add(new PipelineView.Member(m, nodes.node(m).orElse(null), p.reports.get(m)));
    }
    return new PipelineView(p.record, members, p.leader());
  }
}
