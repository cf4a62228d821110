package org.tropos.scm.node;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.RackResolver;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.TransitionTable;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.ReregisterCommand;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmResult;
import org.tropos.proto.scm.db.NodeOperationalRecord;
import org.tropos.scm.db.ScmDb;

/**
 * The datanodes SCM knows, their racks and their health. Registration records a node (persisted, so SCM knows
 * it after a restart); heartbeats keep it HEALTHY; {@link #checkNodes()} ages silent nodes to STALE and DEAD.
 * Nodes loaded from the database count as STALE until they register again. Each node also has an operational
 * state (in service, decommissioning, in maintenance...), set by administrators and persisted.
 *
 * <p>Thread-safety: all state is guarded by {@code lock}; heartbeats arrive on RPC handler threads and
 * {@link #checkNodes()} runs on SCM's scheduler.
 */
public final class NodeManager {
  private static final Logger LOG = LoggerFactory.getLogger(NodeManager.class);

  private final Object lock = new Object();
  private final Map<UUID, TrackedNode> nodes = new HashMap<>();
  private final ScmDb db;
  private final RackResolver racks;
  private final Clock clock;
  private final NodeHealth health;
  private final String clusterId;
  private final CommandQueue commands;
  private final List<NodeEvents> listeners = new CopyOnWriteArrayList<>();

  public NodeManager(ScmDb db, RackResolver racks, Clock clock, Duration staleInterval, Duration deadInterval,
      String clusterId, CommandQueue commands) {
    this.commands = commands;
    this.db = db;
    this.racks = racks;
    this.clock = clock;
    this.health = new NodeHealth(staleInterval, deadInterval);
    this.clusterId = clusterId;
  }

  /** Adds a listener of registrations, state changes and reports; before SCM serves requests. */
  public void listen(NodeEvents listener) {
    listeners.add(listener);
  }

  /**
   * Loads the nodes SCM knew before it stopped, with their operational states; they count as STALE until they
   * register again.
   */
  public void load() throws IOException {
    long now = clock.monotonicMillis();
    synchronized (lock) {
      for (DatanodeDetails details : db.nodes()) {
        nodes.put(Uuids.fromProto(details.getUuid()), new TrackedNode(details, NodeState.STALE, now, false));
      }
      for (NodeOperationalRecord state : db.nodeStates()) {
        TrackedNode node = nodes.get(Uuids.fromProto(state.getId()));
        if (node != null) {
          node.operational = state;
        }
      }
    }
    LOG.info("SCM knows {} datanodes from its database; waiting for them to register", nodes.size());
  }

  /** Registers (or re-registers) a datanode and returns it with the rack SCM placed it on. */
  public DatanodeDetails register(DatanodeDetails offered, NodeReport report, String nodeClusterId)
      throws ScmException {
    return register(offered, report, nodeClusterId, clock.monotonicMillis());
  }

  /**
   * Takes over a datanode another SCM of the service served while this one followed: registered as this SCM heard
   * it (every SCM of an HA service hears every datanode), with the reports of its last heartbeat if one came, as
   * last heard from at {@code heardAtMillis} (monotonic). No command is taken for it: they wait for its next
   * heartbeat.
   */
  public void takeOver(RegisterRequest registration, Optional<HeartbeatRequest> lastHeartbeat, long heardAtMillis)
      throws ScmException {
    UUID id = Uuids.fromProto(register(registration.getDatanode(), registration.getNodeReport(),
        registration.getClusterId(), heardAtMillis).getUuid());
    if (lastHeartbeat.isPresent()) {
      HeartbeatRequest last = lastHeartbeat.get();
      recordHeartbeat(id, last.getNodeReport(), last.getPipelineReportsList(), last.getContainerReportsList(),
          heardAtMillis);
    }
  }

  private DatanodeDetails register(DatanodeDetails offered, NodeReport report, String nodeClusterId,
      long heardAtMillis) throws ScmException {
    if (!nodeClusterId.isEmpty() && !nodeClusterId.equals(clusterId)) {
      throw new ScmException(ScmResult.CLUSTER_ID_MISMATCH, "datanode " + Uuids.fromProto(offered.getUuid())
          + " belongs to cluster " + nodeClusterId + ", this SCM to " + clusterId);
    }
    UUID id = Uuids.fromProto(offered.getUuid());
    DatanodeDetails details = offered.toBuilder()
        .setNetworkLocation(racks.resolve(offered.getHostName(), offered.getIpAddress())).build();
    synchronized (lock) {
      TrackedNode previous = nodes.get(id);
      if (previous == null || !previous.details.equals(details)) {
        persist(id, details);
      }
      TrackedNode node = new TrackedNode(details, NodeState.HEALTHY, heardAtMillis, true);
      node.report = report;
      if (previous != null) {
        node.operational = previous.operational;
      }
      nodes.put(id, node);
      LOG.info("Datanode {} ({}) {} on rack {}", id, details.getHostName(),
          previous == null ? "registered" : "re-registered", details.getNetworkLocation());
    }
    listeners.forEach(l -> l.registered(id));
    return details;
  }

  /** Records a heartbeat and the pipelines and containers it reports; returns the commands waiting for it. */
  public List<ScmCommand> heartbeat(UUID id, NodeReport report, List<PipelineReport> pipelines,
      List<ContainerReport> containers) {
    if (!recordHeartbeat(id, report, pipelines, containers, clock.monotonicMillis())) {
      return List.of(ScmCommand.newBuilder().setReregister(ReregisterCommand.getDefaultInstance()).build());
    }
    return commands.drain(id);
  }

  /** Records a heartbeat heard at {@code heardAtMillis}; false if the node must register first. */
  private boolean recordHeartbeat(UUID id, NodeReport report, List<PipelineReport> pipelines,
      List<ContainerReport> containers, long heardAtMillis) {
    NodeState before;
    synchronized (lock) {
      TrackedNode node = nodes.get(id);
      if (node == null || !node.registeredSinceStart) {
        return false;
      }
      node.lastContactMillis = heardAtMillis;
      node.report = report;
      node.serving = true;
      before = node.state;
      if (before != NodeState.HEALTHY) {
        LOG.info("Datanode {} ({}) is HEALTHY again after being {}", id, node.details.getHostName(), before);
        node.state = NodeState.HEALTHY;
      }
    }
    if (before != NodeState.HEALTHY) {
      listeners.forEach(l -> l.stateChanged(id, before, NodeState.HEALTHY));
    }
    listeners.forEach(l -> l.pipelinesReported(id, pipelines));
    listeners.forEach(l -> l.containersReported(id, containers));
    return true;
  }

  /** Ages every node by the time since it was last heard from. */
  public void checkNodes() {
    long now = clock.monotonicMillis();
    List<Runnable> changes = new ArrayList<>();
    synchronized (lock) {
      nodes.forEach((id, node) -> {
        long age = now - node.lastContactMillis;
        NodeState next = health.aged(node.state, age);
        if (next != node.state) {
          LOG.info("Datanode {} ({}) went from {} to {}: no heartbeat for {} ms", id, node.details.getHostName(),
              node.state, next, age);
          NodeState from = node.state;
          changes.add(() -> listeners.forEach(l -> l.stateChanged(id, from, next)));
          node.state = next;
        }
      });
    }
    changes.forEach(Runnable::run);
  }

  /**
   * Moves a node to an operational state (persisted first) and tells the listeners.
   *
   * @param maintenanceEndEpochMs when maintenance ends by itself; 0 = never (or not maintenance)
   * @return its state before
   */
  public NodeOperationalState setOperationalState(UUID id, NodeOperationalState to, long maintenanceEndEpochMs)
      throws ScmException {
    NodeOperationalState from;
    synchronized (lock) {
      TrackedNode node = nodes.get(id);
      if (node == null) {
        throw new ScmException(ScmResult.INVALID_REQUEST, "no datanode " + id);
      }
      from = node.operationalState();
      try {
        OperationalStates.TABLE.check(id.toString(), from, to);
      } catch (TransitionTable.IllegalTransitionException e) {
        throw new ScmException(ScmResult.INVALID_REQUEST, e.getMessage());
      }
      NodeOperationalRecord updated = NodeOperationalRecord.newBuilder().setId(Uuids.toProto(id)).setState(to)
          .setMaintenanceEndEpochMs(maintenanceEndEpochMs).setChangedEpochMs(clock.wallTime().toEpochMilli())
          .build();
      try {
        db.putNodeState(updated);
      } catch (IOException e) {
        LOG.error("Cannot record datanode {}'s operational state", id, e);
        throw new ScmException(ScmResult.INTERNAL_ERROR, "SCM cannot record datanode " + id + "'s state: "
            + e.getMessage());
      }
      node.operational = updated;
      LOG.info("Datanode {} ({}) is {} (was {})", id, node.details.getHostName(), to, from);
    }
    if (from != to) {
      listeners.forEach(l -> l.operationalStateChanged(id, from, to));
    }
    return from;
  }

  /**
   * The node {@code host} names: its uuid, host name or IP address, with or without a port. Empty if none; an
   * error if several nodes share the name (then a uuid or host:port tells them apart).
   */
  public Optional<UUID> find(String host) throws ScmException {
    String name = host.trim();
    List<UUID> matches = new ArrayList<>();
    synchronized (lock) {
      nodes.forEach((id, node) -> {
        if (id.toString().equals(name) || namedBy(node.details, name)) {
          matches.add(id);
        }
      });
    }
    if (matches.size() > 1) {
      throw new ScmException(ScmResult.INVALID_REQUEST, host + " names " + matches.size() + " datanodes " + matches
          + "; give a uuid or host:port");
    }
    return matches.stream().findFirst();
  }

  private static boolean namedBy(DatanodeDetails details, String name) {
    int colon = name.lastIndexOf(':');
    String hostPart = colon > 0 ? name.substring(0, colon) : name;
    String port = colon > 0 ? name.substring(colon + 1) : null;
    boolean host = hostPart.equals(details.getHostName()) || hostPart.equals(details.getIpAddress());
    return host && (port == null || details.getPortsList().stream()
        .anyMatch(p -> Integer.toString(p.getValue()).equals(port)));
  }

  /** One node, if known. */
  public Optional<NodeStatus> node(UUID id) {
    long now = clock.monotonicMillis();
    synchronized (lock) {
      TrackedNode node = nodes.get(id);
      return node == null ? Optional.empty() : Optional.of(statusOf(id, node, now));
    }
  }

  /** All known nodes, sorted by host name then id. */
  public List<NodeStatus> nodes() {
    long now = clock.monotonicMillis();
    List<NodeStatus> result = new ArrayList<>();
    synchronized (lock) {
      nodes.forEach((id, node) -> result.add(statusOf(id, node, now)));
    }
    result.sort(Comparator.comparing((NodeStatus n) -> n.details().getHostName()).thenComparing(NodeStatus::id));
    return result;
  }

  private static NodeStatus statusOf(UUID id, TrackedNode node, long now) {
    return new NodeStatus(id, node.details, node.state, node.report,
        node.registeredSinceStart ? now - node.lastContactMillis : -1, node.operationalState(),
        node.operational.getMaintenanceEndEpochMs(), node.serving);
  }

  private void persist(UUID id, DatanodeDetails details) throws ScmException {
    try {
      db.putNode(details, id);
    } catch (IOException e) {
      LOG.error("Cannot record datanode {} in SCM's database", id, e);
      throw new ScmException(ScmResult.INTERNAL_ERROR, "SCM cannot record datanode " + id + ": " + e.getMessage());
    }
  }

  /** Mutable state of one node; guarded by {@code lock}. */
  private static final class TrackedNode {
    final DatanodeDetails details;
    final boolean registeredSinceStart;
    NodeState state;
    long lastContactMillis;
    /** A heartbeat came after this registration (see {@link NodeStatus#serving}). */
    boolean serving;
    NodeReport report = NodeReport.getDefaultInstance();
    NodeOperationalRecord operational = NodeOperationalRecord.getDefaultInstance();

    /** IN_SERVICE unless an administrator said otherwise. */
    NodeOperationalState operationalState() {
      return operational.hasId() ? operational.getState() : NodeOperationalState.IN_SERVICE;
    }

    TrackedNode(DatanodeDetails details, NodeState state, long lastContactMillis, boolean registeredSinceStart) {
      this.details = details;
      this.state = state;
      this.lastContactMillis = lastContactMillis;
      this.registeredSinceStart = registeredSinceStart;
    }
  }
}
