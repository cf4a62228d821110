package org.tropos.scm.simulation;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Supplier;
import org.tropos.common.conf.DataSize;
import org.tropos.common.net.RackResolver;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.scm.block.BlockDeletingService;
import org.tropos.scm.block.BlockDeletionConfig;
import org.tropos.scm.block.DeletedBlockLog;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.DatanodeAdmin;
import org.tropos.scm.node.HeardDatanodes;
import org.tropos.scm.node.NodeManager;
import org.tropos.scm.pipeline.PipelineLimits;
import org.tropos.scm.pipeline.PipelineManager;
import org.tropos.scm.pipeline.PipelineRenewer;
import org.tropos.scm.replication.ReplicationConfig;
import org.tropos.scm.replication.ReplicationManager;

/**
 * The SCM under test: its real node, pipeline, container, replication and block-deletion managers on a real
 * database, wired as a serving SCM wires them, with the simulation's clock and scheduler. The periodic rounds an
 * SCM runs on its schedulers are run by the simulation ({@link #runRounds}). A restart builds the managers afresh
 * and loads them from the database, as a restarted SCM does (every write reached the database before it returned,
 * so reopening it would find the same rows); commands waiting for heartbeats and scheduled work are lost with the
 * old ones.
 *
 * <p>An HA service of several SCMs shares the one database: a write returns once the SCMs' Raft group committed
 * it, and a new leader serves only once it applied everything committed, so every SCM that comes to lead finds
 * the rows the last one wrote. What differs between them is what each heard from the datanodes (every SCM hears
 * every datanode, {@link HeardDatanodes}): a new leader starts its managers afresh from the database and hands them
 * what it heard, as {@code ScmServices} does; a restarted SCM has heard nothing since it started.
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
  /** Deletions: a round every 5 s, at most 50 blocks per round, sent again after 30 s, up to 4096 times. */
  private static final BlockDeletionConfig DELETION = new BlockDeletionConfig(Duration.ofSeconds(5), 50, 4096,
      Duration.ofSeconds(30));
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
  private DeletedBlockLog deletedBlocks;
  private BlockDeletingService deletions;
  /** What each SCM of an HA service heard; empty for a single SCM, which needs no record. */
  private final HeardDatanodes[] heard;
  private int leader;

  /** @param scms how many SCMs serve: 1 for a single SCM, more for an HA service */
  SimulatedScm(ScmDb db, SimulatedClock clock, SimulatedScheduler scheduler, RackResolver racks,
      PipelineLimits limits, Supplier<UUID> ids, int scms) {
    this.db = db;
    this.clock = clock;
    this.scheduler = scheduler;
    this.racks = racks;
    this.limits = limits;
    this.ids = ids;
    this.heard = new HeardDatanodes[scms == 1 ? 0 : scms];
    for (int i = 0; i < heard.length; i++) {
      heard[i] = new HeardDatanodes(clock);
    }
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
    deletedBlocks = new DeletedBlockLog(db);
    deletedBlocks.load();
    deletions = new BlockDeletingService(deletedBlocks, containers::replicaHolders, containers::deletionsDone, nodes,
        commands, clock, DELETION);
    if (heard.length > 0) {
      heard[leader].handTo(nodes, STALE);
    }
  }

  boolean isHa() {
    return heard.length > 0;
  }

  /**
   * Restarts SCM {@code which} (of an HA service; the single SCM otherwise): what it kept in memory is gone, what
   * it stored is loaded again. A restarted HA leader loses the leadership to the next SCM.
   */
  void restart(int which) throws IOException {
    if (!isHa()) {
      scheduler.clear();
      start();
      return;
    }
    heard[which] = new HeardDatanodes(clock);
    if (which == leader) {
      changeLeader((leader + 1) % heard.length);
    }
  }

  /** Another SCM of the HA service takes the leadership: the old leader's managers and their work are gone. */
  void changeLeader(int next) throws IOException {
    leader = next;
    scheduler.clear();
    start();
  }

  int leader() {
    return leader;
  }

  int scmCount() {
    return Math.max(1, heard.length);
  }

  /** A datanode's registration, heard by every SCM of an HA service that it reaches. */
  void heardRegistration(RegisterRequest registration) {
    for (HeardDatanodes scm : heard) {
      scm.registered(registration);
    }
  }

  /** A datanode's heartbeat, heard by every SCM; one that has not heard it register is registered with again. */
  void heardHeartbeat(HeartbeatRequest heartbeat, RegisterRequest registration) {
    for (HeardDatanodes scm : heard) {
      if (!scm.heartbeat(heartbeat)) {
        scm.registered(registration);
      }
    }
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
    if (millis % DELETION.interval().toMillis() == 0) {
      deletions.run();
    }
  }

  DeletedBlockLog deletedBlocks() {
    return deletedBlocks;
  }

  BlockDeletingService deletions() {
    return deletions;
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
