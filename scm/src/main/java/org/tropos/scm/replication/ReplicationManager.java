package org.tropos.scm.replication;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.DeleteContainerCommand;
import org.tropos.proto.scm.HealthCount;
import org.tropos.proto.scm.ReconstructEcContainerCommand;
import org.tropos.proto.scm.ReplicateContainerCommand;
import org.tropos.proto.scm.ReplicationReport;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.container.ContainerView;
import org.tropos.scm.container.EcContainerView;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.node.NodeStatus;

/**
 * Runs replication (every hdds.scm.replication.thread.interval): takes a snapshot of nodes and replicas, retires
 * the copies and deletions it sees done (or whose time ran out, or whose node died), lets the
 * {@link ReplicationPlanner} decide, and sends the commands with the datanode's next heartbeat. A command carries
 * a deadline a little before SCM's own, so a datanode that restarts or falls behind drops work SCM will plan again.
 *
 * <p>Nothing is done until every datanode that is not DEAD has reported its replicas since SCM started: before
 * that, a replica not yet reported would look lost and be copied again (or a draining node look drained).
 *
 * <p>What is under way is kept in memory only: after an SCM restart the datanodes finish what they were doing,
 * their reports show it, and anything planned twice ends as an extra replica that the next rounds delete. The
 * container states it changes (QUASI_CLOSED to CLOSED) are stored by the container manager.
 *
 * <p>Thread-safety: {@link #run()} holds the manager's lock; the last findings are published for readers.
 */
public final class ReplicationManager {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationManager.class);

  private final ContainerManager containers;
  private final NodeManager nodes;
  private final CommandQueue commands;
  private final Clock clock;
  private final ReplicationConfig config;
  private final ReplicationPlanner planner;
  private final DrainMonitor drains;
  private final List<InFlight> inFlight = new ArrayList<>();
  private final EcRepairPlanner ecPlanner;
  private final List<EcRepair> ecInFlight = new ArrayList<>();
  private final LongAdder ecRebuildsSentCount = new LongAdder();
  private volatile Map<Long, ContainerHealth> health = Map.of();
  private volatile long lastRunEpochMs;
  private long lastUnreported;
  private final LongAdder copiesSent = new LongAdder();
  private final LongAdder deletionsSent = new LongAdder();

  public ReplicationManager(ContainerManager containers, NodeManager nodes, CommandQueue commands, Clock clock,
      ReplicationConfig config) {
    this.containers = containers;
    this.nodes = nodes;
    this.commands = commands;
    this.clock = clock;
    this.config = config;
    this.planner = new ReplicationPlanner(config.perNodeLimit(), config.inFlightFactor(),
        config.maintenanceMinimum());
    this.drains = new DrainMonitor(config.maintenanceMinimum());
    this.ecPlanner = new EcRepairPlanner(config.perNodeLimit());
  }

  /** One round: retire what is done, plan, send. */
  public synchronized void run() {
    Map<UUID, NodeStatus> statuses = new HashMap<>();
    nodes.nodes().forEach(n -> statuses.put(n.id(), n));
    Map<UUID, ReplicaNode> nodeViews = new HashMap<>();
    statuses.values().forEach(n -> nodeViews.put(n.id(), view(n)));
    long unreported = statuses.values().stream()
        .filter(n -> n.state() != NodeState.DEAD && !containers.hasReported(n.id())).count();
    if (unreported > 0) {
      if (unreported != lastUnreported) {
        LOG.info("Replication waits for the first reports of {} datanodes since SCM started", unreported);
      }
      lastUnreported = unreported;
      return;
    }
    lastUnreported = 0;
    Map<Long, ContainerView> views = new HashMap<>();
    containers.replicationViews().forEach(c -> views.put(c.id(), c));
    retire(views, nodeViews);
    ReplicationPlanner.Plan plan = planner.plan(views.values(), nodeViews, inFlight);
    for (ReplicationAction action : plan.actions()) {
      LOG.debug("Replication: {}", action);
      carryOut(action, statuses);
    }
    List<EcContainerView> ec = containers.ecViews();
    retireEc(ec, nodeViews);
    EcRepairPlanner.Plan ecPlan = ecPlanner.plan(ec, nodeViews, ecInFlight);
    ecPlan.actions().forEach(repair -> carryOut(repair, statuses));
    Map<Long, ContainerHealth> found = new HashMap<>(plan.health());
    found.putAll(ecPlan.health());
    health = Map.copyOf(found);
    lastRunEpochMs = clock.wallTime().toEpochMilli();
    advanceDrains(views, ec, nodeViews, statuses);
    long copies = plan.actions().stream().filter(a -> a instanceof ReplicationAction.Copy).count();
    if (!plan.actions().isEmpty()) {
      LOG.info("Replication: {} actions ({} copies); {} copies and deletions under way; {}", plan.actions().size(),
          copies, inFlight.size(), counts());
    }
  }

  private static ReplicaNode view(NodeStatus n) {
    long free = n.lastReport().getVolumesList().stream().filter(v -> v.getState() == StorageState.NORMAL)
        .mapToLong(VolumeReport::getAvailableBytes).sum();
    return new ReplicaNode(n.id(), n.details().getNetworkLocation(), n.state(), n.operationalState(), free);
  }

  /** Moves draining nodes on once their containers are safe elsewhere, and ends maintenance at its time. */
  private void advanceDrains(Map<Long, ContainerView> views, List<EcContainerView> ec,
      Map<UUID, ReplicaNode> nodeViews, Map<UUID, NodeStatus> statuses) {
    Map<UUID, Long> ends = new HashMap<>();
    statuses.values().forEach(n -> ends.put(n.id(), n.maintenanceEndEpochMs()));
    for (DrainMonitor.Transition move : drains.transitions(views.values(), nodeViews, ends,
        clock.wallTime().toEpochMilli())) {
      boolean draining = move.to() == NodeOperationalState.DECOMMISSIONED
          || move.to() == NodeOperationalState.IN_MAINTENANCE;
      if (draining && !EcRepairPlanner.drained(move.node(), ec, nodeViews,
          move.to() == NodeOperationalState.IN_MAINTENANCE)) {
        continue;
      }
      try {
        nodes.setOperationalState(move.node(), move.to(), move.to() == NodeOperationalState.IN_MAINTENANCE
            ? statuses.get(move.node()).maintenanceEndEpochMs() : 0);
      } catch (ScmException e) {
        LOG.warn("Datanode {} stays {}: {}", move.node(), statuses.get(move.node()).operationalState(),
            e.getMessage());
      }
    }
  }

  /** Drops the commands seen done, timed out, or sent to a node that has died. */
  private void retire(Map<Long, ContainerView> views, Map<UUID, ReplicaNode> nodeViews) {
    long now = clock.monotonicMillis();
    inFlight.removeIf(f -> {
      ContainerView c = views.get(f.containerId());
      ReplicaNode node = nodeViews.get(f.node());
      boolean holds = c != null && c.replicas().stream().anyMatch(r -> r.node().equals(f.node()));
      if (c == null || node == null || !node.present()) {
        return true;
      }
      if (f.kind() == InFlight.Kind.COPY ? holds : !holds) {
        return true;
      }
      if (now >= f.deadlineMillis()) {
        LOG.warn("Replication: the {} of container {} on {} did not finish in {}; planning it again", f.kind(),
            f.containerId(), f.node(), config.timeout());
        return true;
      }
      return false;
    });
  }

  private void carryOut(ReplicationAction action, Map<UUID, NodeStatus> statuses) {
    long deadline = clock.monotonicMillis() + config.timeout().toMillis();
    long datanodeDeadline = clock.wallTime().toEpochMilli() + config.timeout().minus(config.datanodeOffset())
        .toMillis();
    long id = action.containerId();
    if (action instanceof ReplicationAction.Copy copy) {
      List<DatanodeDetails> sources = copy.sources().stream().map(s -> statuses.get(s).details()).toList();
      commands.add(copy.target(), ScmCommand.newBuilder().setReplicateContainer(ReplicateContainerCommand
          .newBuilder().setContainerId(id).addAllSources(sources).setDeadlineEpochMs(datanodeDeadline)).build());
      inFlight.add(new InFlight(id, copy.target(), InFlight.Kind.COPY, copy.sources().get(0), deadline));
      copiesSent.increment();
    } else if (action instanceof ReplicationAction.Delete delete) {
      commands.add(delete.node(), ScmCommand.newBuilder().setDeleteContainer(DeleteContainerCommand.newBuilder()
          .setContainerId(id).setDeadlineEpochMs(datanodeDeadline)).build());
      inFlight.add(new InFlight(id, delete.node(), InFlight.Kind.DELETE, null, deadline));
      deletionsSent.increment();
    } else if (action instanceof ReplicationAction.QuasiClose close) {
      commands.add(close.node(), ScmCommand.newBuilder().setCloseContainer(CloseContainerCommand.newBuilder()
          .setContainerId(id).setQuasi(true)).build());
    } else if (action instanceof ReplicationAction.ForceClose close) {
      commands.add(close.node(), ScmCommand.newBuilder().setCloseContainer(CloseContainerCommand.newBuilder()
          .setContainerId(id).setForce(true)).build());
    } else if (action instanceof ReplicationAction.ForgetEmpty) {
      containers.forgetEmpty(id);
    } else {
      containers.markClosed(id);
    }
  }

  /** Drops the repairs of erasure-coded indexes seen done, timed out, or sent to a node that has died. */
  private void retireEc(List<EcContainerView> ec, Map<UUID, ReplicaNode> nodeViews) {
    Map<Long, EcContainerView> byId = new HashMap<>();
    ec.forEach(c -> byId.put(c.id(), c));
    long now = clock.monotonicMillis();
    ecInFlight.removeIf(f -> {
      EcContainerView c = byId.get(f.containerId());
      ReplicaNode node = nodeViews.get(f.target());
      if (c == null || node == null || !node.present()) {
        return true;
      }
      boolean holds = c.replicas().stream().anyMatch(r -> r.node().equals(f.target()) && r.index() == f.index());
      if (f.isDelete() ? !holds : holds) {
        return true;
      }
      if (now >= f.deadlineMillis()) {
        LOG.warn("Replication: the repair of index {} of container {} on {} did not finish in {}; planning it again",
            f.index(), f.containerId(), f.target(), config.timeout());
        return true;
      }
      return false;
    });
  }

  /** Sends a repair of an erasure-coded index: a deletion, a copy off a leaving node, or a rebuild. */
  private void carryOut(EcRepair repair, Map<UUID, NodeStatus> statuses) {
    long datanodeDeadline = clock.wallTime().toEpochMilli() + config.timeout().minus(config.datanodeOffset())
        .toMillis();
    long id = repair.containerId();
    if (repair.isDelete()) {
      commands.add(repair.target(), ScmCommand.newBuilder().setDeleteContainer(DeleteContainerCommand.newBuilder()
          .setContainerId(id).setDeadlineEpochMs(datanodeDeadline)).build());
      deletionsSent.increment();
    } else if (repair.isCopy()) {
      commands.add(repair.target(), ScmCommand.newBuilder().setReplicateContainer(ReplicateContainerCommand
          .newBuilder().setContainerId(id).addSources(statuses.get(repair.sources().get(repair.index())).details())
          .setDeadlineEpochMs(datanodeDeadline)).build());
      copiesSent.increment();
    } else {
      ReconstructEcContainerCommand.Builder rebuild = ReconstructEcContainerCommand.newBuilder().setContainerId(id)
          .setEc(repair.config().toProto()).setIndex(repair.index()).setDeadlineEpochMs(datanodeDeadline);
      new TreeMap<>(repair.sources()).forEach((index, node) -> rebuild.addSourceIndexes(index)
          .addSources(statuses.get(node).details()));
      commands.add(repair.target(), ScmCommand.newBuilder().setReconstructEcContainer(rebuild).build());
      ecRebuildsSentCount.increment();
    }
    LOG.info("Replication: {} index {} of container {} {} {}", repair.isDelete() ? "delete" : repair.isCopy()
        ? "copy" : "rebuild", repair.index(), id, repair.isDelete() ? "from" : "on", repair.target());
    ecInFlight.add(repair.sent(clock.monotonicMillis() + config.timeout().toMillis()));
  }

  /** Rebuilds of erasure-coded indexes sent since SCM started. */
  public long ecRebuildsSent() {
    return ecRebuildsSentCount.sum();
  }

  /** Repairs of erasure-coded indexes sent and not yet seen done. */
  public synchronized int ecRepairsInFlight() {
    return ecInFlight.size();
  }

  /** What the last round found of each container. */
  public Map<Long, ContainerHealth> health() {
    return health;
  }

  /** How many containers the last round found in each class. */
  public Map<ContainerHealth, Integer> counts() {
    Map<ContainerHealth, Integer> counts = new EnumMap<>(ContainerHealth.class);
    health.values().forEach(h -> counts.merge(h, 1, Integer::sum));
    return counts;
  }

  /** The last round's findings and what is under way, for admins and metrics. */
  public synchronized ReplicationReport report() {
    ReplicationReport.Builder report = ReplicationReport.newBuilder().setContainers(health.size())
        .setLastRunEpochMs(lastRunEpochMs)
        .setCopiesInFlight((int) inFlight.stream().filter(f -> f.kind() == InFlight.Kind.COPY).count())
        .setDeletionsInFlight((int) inFlight.stream().filter(f -> f.kind() == InFlight.Kind.DELETE).count());
    counts().forEach((h, n) -> report.addCounts(HealthCount.newBuilder().setHealth(h).setCount(n)));
    return report.build();
  }

  /** Container copies sent since SCM started. */
  public long copiesSent() {
    return copiesSent.sum();
  }

  /** Replica deletions sent since SCM started. */
  public long deletionsSent() {
    return deletionsSent.sum();
  }

  /** Copies and deletions sent and not yet seen done. */
  public synchronized List<InFlight> inFlight() {
    return List.copyOf(inFlight);
  }
}
