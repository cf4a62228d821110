package org.tropos.scm.simulation;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.simulation.SeedRuns;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.common.simulation.Trace;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.ExcludeList;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.KeyBlocks;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.scm.container.ContainerManager;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.pipeline.PipelineLimits;

/**
 * One seeded run of SCM's control plane (issue 44): the real SCM managers drive simulated datanodes through
 * registrations, heartbeats and commands on one thread and a simulated clock, while a client writes and deletes
 * blocks and faults strike (crashes, partitions from SCM, lost answers, late and repeated commands, SCM restarts
 * and HA leader changes, damaged replicas, lost disks and nodes, decommission and maintenance). The {@link
 * Invariants} are checked after every simulated second; when the faults stop, every node is brought back and the
 * cluster must heal within a quiet time. Everything random comes from the seed, so a failing seed replays exactly.
 */
public final class ControlPlaneSimulation {
  private static final long STEP_MILLIS = 1000;
  /** Events kept for the report of a failure; -Dsimulation.trace=N keeps more. */
  private static final int TRACE = Integer.getInteger("simulation.trace", 40);
  private static final long HEAL_CHECK_MILLIS = 10_000;

  private final long seed;
  private final Random random;
  private final SimulatedClock clock = new SimulatedClock();
  private final SimulatedCluster cluster;
  private final SimulatedScm scm;
  private final Invariants invariants;
  private final Faults faults;
  private final Trace trace = new Trace(TRACE, clock);
  private final long faultMillis;
  private final long quietMillis;
  private long acknowledged;
  /** The cluster's shape, for the report of a failure. */
  private final String shape;

  /** What a run found. */
  public record Outcome(long seed, String failure, long acknowledged, long simulatedMillis)
      implements SeedRuns.Outcome {
  }

  /** How long faults strike and how long the cluster then has to heal. */
  public record Schedule(long faultMillis, long quietMillis) {
    public static final Schedule DEFAULT = new Schedule(120_000, 300_000);
  }

  private ControlPlaneSimulation(long seed, ScmDb db, Schedule schedule, PlantedFlaw flaw) {
    this.seed = seed;
    this.random = new Random(seed);
    this.faultMillis = schedule.faultMillis();
    this.quietMillis = schedule.quietMillis();
    this.cluster = new SimulatedCluster(clock, flaw);
    int racks = 2 + random.nextInt(2);
    int nodes = Math.max(racks + 2, 4 + random.nextInt(6));
    Map<String, String> rackOfHost = new HashMap<>();
    for (int i = 0; i < nodes; i++) {
      UUID id = new UUID(random.nextLong(), random.nextLong());
      SimulatedDatanode node = new SimulatedDatanode(id, "dn-" + (i + 1), "/rack" + (i % racks));
      cluster.nodes.put(id, node);
      rackOfHost.put(node.details.getHostName(), node.rack);
    }
    PipelineLimits limits = new PipelineLimits(1 + random.nextInt(3), 2, 0);
    int scms = random.nextBoolean() ? 1 : 3;
    this.shape = nodes + " datanodes on " + racks + " racks, " + limits.perNode() + " pipelines each, "
        + (scms == 1 ? "one SCM" : scms + " SCMs");
    this.scm = new SimulatedScm(db, clock, new SimulatedScheduler(clock), (host, ip) -> rackOfHost.get(host),
        limits, () -> new UUID(random.nextLong(), random.nextLong()), scms);
    this.invariants = new Invariants(cluster, scm, limits, racks);
    this.faults = new Faults(random, clock, cluster, scm, this::log);
  }

  /**
   * Runs one seed on {@code db}, emptied first: one database serves many runs, one at a time.
   *
   * @param flaw a bug to plant, to show the simulation finds it; {@link PlantedFlaw#NONE} normally
   */
  public static Outcome run(long seed, ScmDb db, Schedule schedule, PlantedFlaw flaw) throws IOException {
    db.clear();
    return new ControlPlaneSimulation(seed, db, schedule, flaw).run();
  }

  private Outcome run() throws IOException {
    scm.start();
    try {
      for (long t = STEP_MILLIS; t <= faultMillis; t += STEP_MILLIS) {
        clock.advance(STEP_MILLIS);
        faults.maybeStrike();
        step(t);
        invariants.checkSafety();
      }
      faults.endAll();
      log("faults end; the cluster has " + quietMillis / 1000 + " s to heal");
      String unhealed = invariants.unhealed();
      for (long t = faultMillis + STEP_MILLIS; unhealed != null && t <= faultMillis + quietMillis; t += STEP_MILLIS) {
        clock.advance(STEP_MILLIS);
        step(t);
        invariants.checkSafety();
        if (t % HEAL_CHECK_MILLIS == 0 || t == faultMillis + quietMillis) {
          unhealed = invariants.unhealed();
        }
      }
      if (unhealed != null) {
        throw new Invariants.Violation("not healed " + quietMillis / 1000 + " s after the faults ended: "
            + unhealed);
      }
      return new Outcome(seed, null, acknowledged, clock.millis());
    } catch (RuntimeException e) {
      // A violated invariant, or SCM's code failing under the run: either way the seed is what replays it.
      String what = e instanceof Invariants.Violation ? e.getMessage() : e.toString();
      return new Outcome(seed, "seed " + seed + " (" + shape + ") at " + clock.millis() / 1000 + " s: " + what
          + "\nlast events:\n" + trace.lines("  "), acknowledged, clock.millis());
    }
  }

  private void step(long t) {
    faults.restartDue();
    carryOutDelayed();
    cluster.catchUp();
    cluster.landCopies();
    int index = 0;
    for (SimulatedDatanode node : cluster.nodes.values()) {
      if ((t / STEP_MILLIS + index++) % (SimulatedScm.HEARTBEAT.toMillis() / STEP_MILLIS) == 0) {
        heartbeat(node);
      }
    }
    for (int writes = random.nextInt(3); writes > 0; writes--) {
      write();
    }
    // Deletions stop with the faults: each one made must then be carried out everywhere within the quiet time.
    if (t <= faultMillis && random.nextInt(3) == 0) {
      deleteOne();
    }
    scm.runRounds(t);
  }

  private void heartbeat(SimulatedDatanode node) {
    List<DeleteBlocksAck> acks = node.takeDeletionAcks();
    if (!node.hearsScm(clock.millis())) {
      return;
    }
    RegisterRequest registration = RegisterRequest.newBuilder().setDatanode(node.details)
        .setNodeReport(node.nodeReport()).build();
    try {
      if (node.mustRegister) {
        scm.nodes().register(node.details, node.nodeReport(), "");
        scm.heardRegistration(registration);
        node.mustRegister = false;
      }
    } catch (ScmException e) {
      throw new IllegalStateException(node + " could not register: " + e.getMessage(), e);
    }
    HeartbeatRequest beat = HeartbeatRequest.newBuilder().setDatanodeUuid(Uuids.toProto(node.id))
        .setNodeReport(node.nodeReport()).addAllPipelineReports(node.pipelineReports(cluster.groups))
        .addAllContainerReports(node.containerReports()).addAllDeleteBlocksAcks(acks).build();
    scm.heardHeartbeat(beat, registration);
    scm.deletions().acknowledged(node.id, acks);
    List<ScmCommand> commands = scm.nodes().heartbeat(node.id, beat.getNodeReport(), beat.getPipelineReportsList(),
        beat.getContainerReportsList());
    if (node.loseNextAnswer) {
      node.loseNextAnswer = false;
      return;
    }
    for (ScmCommand command : commands) {
      long delay = faults.delayOfCommand();
      if (delay > 0) {
        node.delayed.add(new SimulatedDatanode.Delayed(clock.millis() + delay, command));
        log(node + " holds back for " + delay + " ms: " + describe(command));
      } else {
        carryOut(node, command);
        if (faults.duplicateCommand()) {
          carryOut(node, command);
        }
      }
    }
  }

  /** Carries out the held-back commands that are due, on the nodes that run. */
  private void carryOutDelayed() {
    for (SimulatedDatanode node : cluster.nodes.values()) {
      List<SimulatedDatanode.Delayed> due = node.delayed.stream().filter(d -> d.dueMillis() <= clock.millis())
          .toList();
      node.delayed.removeAll(due);
      due.forEach(d -> carryOut(node, d.command()));
    }
  }

  private void carryOut(SimulatedDatanode node, ScmCommand command) {
    if (command.getCommandCase() != ScmCommand.CommandCase.REREGISTER) {
      log(node + " " + describe(command));
    }
    cluster.carryOut(node, command);
  }

  /** A client writing one block: as the real client, it tries another pipeline or container when one fails. */
  private void write() {
    ExcludeList.Builder exclude = ExcludeList.newBuilder();
    for (int attempt = 0; attempt < 3; attempt++) {
      ContainerManager.Allocation allocation;
      try {
        allocation = scm.containers().allocateBlock(SimulatedScm.BLOCK_SIZE.bytes(), ReplicationFactor.THREE,
            exclude.build());
      } catch (ScmException e) {
        return;
      }
      long container = allocation.block().getContainerId();
      SimulatedGroup group = cluster.groups.get(Uuids.fromProto(
          allocation.pipeline().record().getId().getId()));
      SimulatedCluster.Commit commit = group == null ? SimulatedCluster.Commit.NONE
          : cluster.commit(group, container, false);
      if (commit.written()) {
        invariants.acknowledged(container, commit.index());
        acknowledged++;
        return;
      }
      if (commit.index() == 0) {
        exclude.addPipelines(allocation.pipeline().record().getId());
      } else {
        exclude.addContainers(container);
      }
    }
  }

  /** A client deleting one block it wrote (a key deleted or overwritten): the OM hands it to SCM's log. */
  private void deleteOne() {
    BlockId block = invariants.anyLiveBlock(random);
    if (block == null) {
      return;
    }
    try {
      scm.deletedBlocks().append(List.of(KeyBlocks.newBuilder().setKeyId("key-" + block.getContainerId() + "-"
          + block.getLocalId()).addBlocks(block).build()));
    } catch (ScmException e) {
      return;
    }
    invariants.deleted(block);
  }

  void log(String event) {
    trace.add(event);
  }

  /** A command in a line: its kind and what it names, pipelines by the start of their ids, nodes by host. */
  private String describe(ScmCommand command) {
    return switch (command.getCommandCase()) {
      case CREATE_PIPELINE -> "join pipeline " + shortId(command.getCreatePipeline().getPipelineId());
      case CLOSE_PIPELINE -> "leave pipeline " + shortId(command.getClosePipeline().getPipelineId());
      case TRANSFER_LEADERSHIP -> "hand pipeline " + shortId(command.getTransferLeadership().getPipelineId())
          + " to " + cluster.nodes.get(Uuids.fromProto(command.getTransferLeadership().getNewLeader()));
      case CLOSE_CONTAINER -> (command.getCloseContainer().getForce() ? "force-close"
          : command.getCloseContainer().getQuasi() ? "quasi-close" : "close") + " container "
          + command.getCloseContainer().getContainerId();
      case REPLICATE_CONTAINER -> "copy container " + command.getReplicateContainer().getContainerId() + " from "
          + command.getReplicateContainer().getSourcesList().stream().map(d -> d.getHostName()).toList();
      case DELETE_CONTAINER -> "delete container " + command.getDeleteContainer().getContainerId();
      case DELETE_BLOCKS -> "delete blocks " + command.getDeleteBlocks().getTransactionsList().stream()
          .map(tx -> tx.getContainerId() + "/" + tx.getLocalIdsList()).toList();
      default -> command.getCommandCase().toString();
    };
  }

  static String shortId(PipelineId id) {
    return Uuids.fromProto(id.getId()).toString().substring(0, 8);
  }
}
