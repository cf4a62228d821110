package org.tropos.scm.simulation;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.RackResolver;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.DatanodeAdmin;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.pipeline.PipelineLimits;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.pipeline.PipelineRenewer;
import org.tropos.scm.replication.ReplicationConfig;
import org.tropos.scm.replication.ReplicationManager;

/**
 * The SCM under test: its real node, pipeline, container and replication managers on a real database, wired as
 * a serving SCM wires them, with the simulation's clock and scheduler. The periodic rounds an SCM runs on its
 * schedulers are run by the simulation ({@link #runRounds}). A restart builds the managers afresh and loads them
 * from the database, as a restarted SCM does (every write reached the database before it returned, so reopening
 * it would find the same rows); commands waiting for heartbeats and scheduled work are lost with the old ones.
 */
final class SimulatedScm {
  static final Duration HEARTBEAT = Duration.ofSeconds(3);
  static final Duration STALE = Duration.ofSeconds(30);
  static final Duration DEAD = Duration.ofSeconds(60);
  static final DataSize CONTAINER_SIZE = DataSize.ofBytes(20L << 20);
  static final DataSize BLOCK_SIZE = DataSize.ofBytes(4L << 20);
  private static final Duration PIPELINE_ROUND = Duration.ofSeconds(10);
  private static final Duration CLOSE_ROUND = Duration.ofSeconds(5);
  private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);
  static final ReplicationConfig REPLICATION = new ReplicationConfig(Duration.ofSeconds(3), Duration.ofSeconds(60),
      Duration.ofSeconds(10), 2, 0.5, 2);

  private final ScmDb db;
  private final SimulatedClock clock;
  private final SimulatedScheduler scheduler;
  private final RackResolver racks;
  private final PipelineLimits limits;
  private final Supplier<UUID> ids;
  private CommandQueue commands;
  private NodeManager nodes;
  private PipelineManager pipelines;
  private ContainerManager containers;
  private ReplicationManager replication;
  private PipelineRenewer renewer;
  private DatanodeAdmin admin;

  SimulatedScm(ScmDb db, SimulatedClock clock, SimulatedScheduler scheduler, RackResolver racks,
      PipelineLimits limits, Supplier<UUID> ids) {
    this.db = db;
    this.clock = clock;
    this.scheduler = scheduler;
    this.racks = racks;
    this.limits = limits;
    this.ids = ids;
  }

  void start() throws IOException {
    commands = new CommandQueue();
    nodes = new NodeManager(db, racks, clock, STALE, DEAD, "", commands);
    nodes.load();
    pipelines = new PipelineManager(db, nodes, commands, limits, false, clock, HEARTBEAT, scheduler).namingWith(ids);
    pipelines.load();
    nodes.listen(pipelines);
    containers = new ContainerManager(db, pipelines, nodes, commands, racks, CONTAINER_SIZE, BLOCK_SIZE);
    containers.load();
    nodes.listen(containers);
    pipelines.onClosed(containers::pipelineClosed);
    renewer = new PipelineRenewer(pipelines, containers, clock, DRAIN_TIMEOUT);
    replication = new ReplicationManager(containers, nodes, commands, clock, REPLICATION);
    admin = new DatanodeAdmin(nodes, clock);
  }

  /** An SCM restart: what it kept in memory is gone, what it stored is loaded again. */
  void restart() throws IOException {
    scheduler.clear();
    start();
  }

  /** The rounds an SCM's schedulers run, those due at {@code millis} (the simulation's time, from 0). */
  void runRounds(long millis) {
    scheduler.runDue();
    if (millis % 1000 == 0) {
      nodes.checkNodes();
    }
    if (millis % CLOSE_ROUND.toMillis() == 0) {
      containers.closeFullContainers();
    }
    if (millis % PIPELINE_ROUND.toMillis() == 0) {
      pipelines.fillToLimits();
      renewer.run();
      pipelines.balanceLeaders();
    }
    if (millis % REPLICATION.interval().toMillis() == 0) {
      replication.run();
    }
  }

  NodeManager nodes() {
    return nodes;
  }

  PipelineManager pipelines() {
    return pipelines;
  }

  ContainerManager containers() {
    return containers;
  }

  ReplicationManager replication() {
    return replication;
  }

  DatanodeAdmin admin() {
    return admin;
  }
}
