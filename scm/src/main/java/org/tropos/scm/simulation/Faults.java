package org.tropos.scm.simulation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.scm.DatanodeAdminResult;
import org.tropos.scm.node.NodeStatus;

/**
 * The faults of a run, drawn from the seed: a datanode stopped for a while (long enough to be declared DEAD at
 * times), cut off from SCM or from the other datanodes, losing a heartbeat's answer, or carrying out a command late
 * or twice; SCM restarted, or another SCM of an HA service taking the leadership; an open replica failing under a
 * write or a closed one found damaged by the scrubber; a datanode's disks lost, or the datanode gone for good; a
 * datanode decommissioned, put in maintenance or recommissioned. Faults that destroy a replica strike only while
 * every other node runs, so no block can be lost for want of surviving copies: what the invariants then find is
 * SCM's doing.
 */
final class Faults {
  private static final double STOP = 0.004;
  private static final double CUT_OFF = 0.004;
  private static final double ISOLATE = 0.003;
  private static final double LOSE_ANSWER = 0.01;
  /** Per command received: carried out late, or twice. */
  private static final double DELAY_COMMAND = 0.01;
  private static final double DUPLICATE_COMMAND = 0.01;
  private static final long LONGEST_DELAY_MILLIS = 20_000;
  private static final double SCM_RESTART = 0.002;
  private static final double SCM_LEADER_CHANGE = 0.003;
  private static final double FAIL_OPEN_REPLICA = 0.002;
  private static final double DAMAGE_CLOSED_REPLICA = 0.002;
  private static final double LOSE_DISKS = 0.0005;
  private static final double LOSE_NODE = 0.0005;
  private static final double ADMIN = 0.003;
  private static final long LONGEST_STOP_MILLIS = 150_000;

  private final Random random;
  private final SimulatedClock clock;
  private final SimulatedCluster cluster;
  private final SimulatedScm scm;
  private final Consumer<String> log;
  private boolean replicaLost;
  private boolean ended;

  Faults(Random random, SimulatedClock clock, SimulatedCluster cluster, SimulatedScm scm, Consumer<String> log) {
    this.random = random;
    this.clock = clock;
    this.cluster = cluster;
    this.scm = scm;
    this.log = log;
  }

  /** Perhaps strikes: each kind of fault with its own small chance per simulated second. */
  void maybeStrike() {
    List<SimulatedDatanode> nodes = List.copyOf(cluster.nodes.values());
    SimulatedDatanode node = nodes.get(random.nextInt(nodes.size()));
    long down = nodes.stream().filter(n -> !n.up).count();
    if (chance(STOP) && node.up && down < (nodes.size() >= 6 ? 2 : 1)) {
      long restartAt = clock.millis() + 2_000 + (long) (random.nextDouble() * LONGEST_STOP_MILLIS);
      node.stop(restartAt);
      log.accept(node + " stops until " + restartAt / 1000 + " s");
    }
    if (chance(CUT_OFF) && node.up) {
      node.cutOffUntilMillis = clock.millis() + 5_000 + (long) (random.nextDouble() * 100_000);
      log.accept(node + " is cut off from SCM until " + node.cutOffUntilMillis / 1000 + " s");
    }
    if (chance(ISOLATE) && node.up) {
      node.isolatedUntilMillis = clock.millis() + 5_000 + (long) (random.nextDouble() * 60_000);
      log.accept(node + " is cut off from the other datanodes until " + node.isolatedUntilMillis / 1000 + " s");
    }
    if (chance(LOSE_ANSWER)) {
      node.loseNextAnswer = true;
    }
    if (chance(SCM_RESTART)) {
      restartScm(random.nextInt(scm.scmCount()));
    }
    if (scm.isHa() && chance(SCM_LEADER_CHANGE)) {
      changeScmLeader();
    }
    boolean mayDestroy = nodes.stream().allMatch(n -> n.up || n == node) && !replicaLost;
    if (chance(FAIL_OPEN_REPLICA) && mayDestroy && node.up) {
      damageOne(node, true);
    }
    if (chance(DAMAGE_CLOSED_REPLICA) && mayDestroy && node.up) {
      damageOne(node, false);
    }
    if (chance(LOSE_DISKS) && mayDestroy && node.up) {
      wipe(node, clock.millis() + 10_000);
      log.accept(node + " lost its disks; back empty at " + node.restartAtMillis / 1000 + " s");
    }
    if (chance(LOSE_NODE) && mayDestroy && node.up && nodes.size() >= 5) {
      wipe(node, Long.MAX_VALUE);
      node.gone = true;
      log.accept(node + " is gone for good");
    }
    if (chance(ADMIN)) {
      administer(node, nodes);
    }
  }

  /** Stops a node until {@code restartAt} with its disks lost: its replicas and Raft groups are gone. */
  private void wipe(SimulatedDatanode node, long restartAt) {
    node.stop(restartAt);
    node.replicas.clear();
    List.copyOf(node.groups).forEach(g -> cluster.leave(node, g));
    replicaLost = true;
  }

  private boolean chance(double p) {
    return random.nextDouble() < p;
  }

  private void restartScm(int which) {
    boolean leader = which == scm.leader();
    try {
      scm.restart(which);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    log.accept(!scm.isHa() ? "SCM restarts" : "scm-" + which + " restarts" + (leader ? "; scm-" + scm.leader()
        + " leads" : ""));
  }

  private void changeScmLeader() {
    try {
      scm.changeLeader((scm.leader() + 1 + random.nextInt(scm.scmCount() - 1)) % scm.scmCount());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    log.accept("scm-" + scm.leader() + " takes the leadership");
  }

  /** Damages one replica of {@code node}: an open one (its disk failed under a write) or a closed one. */
  private void damageOne(SimulatedDatanode node, boolean open) {
    node.replicas.entrySet().stream()
        .filter(e -> !e.getValue().damaged && e.getValue().isOpen() == open
            && (open || e.getValue().state == ContainerState.CONTAINER_CLOSED))
        .findFirst().ifPresent(e -> {
          e.getValue().damaged = true;
          e.getValue().state = ContainerState.CONTAINER_UNHEALTHY;
          SimulatedGroup group = cluster.groups.get(e.getValue().pipeline);
          // A failed commit stops the member applying its pipeline's log (fail-stop) until its datanode restarts;
          // a failed chunk write does not: the member goes on with the log, its replica taking no more writes.
          boolean failedCommit = random.nextBoolean();
          if (open && group != null && failedCommit) {
            group.halt(node.id);
          }
          replicaLost = true;
          log.accept(node + ": replica of container " + e.getKey() + " is UNHEALTHY" + (!open ? " (scrubber)"
              : failedCommit ? " (failed commit: member halts)" : " (failed chunk write)"));
        });
  }

  /** Decommissions, starts maintenance on or recommissions a node; at most one node is out of service at once. */
  private void administer(SimulatedDatanode node, List<SimulatedDatanode> nodes) {
    List<NodeStatus> out = scm.nodes().nodes().stream().filter(n -> !n.inService()).toList();
    String host = node.details.getHostName();
    List<DatanodeAdminResult> result;
    if (!out.isEmpty()) {
      String back = cluster.nodes.get(out.get(0).id()).details.getHostName();
      result = scm.admin().recommission(List.of(back));
    } else if (nodes.size() >= 5 && random.nextBoolean()) {
      result = scm.admin().decommission(List.of(host));
    } else {
      result = scm.admin().startMaintenance(List.of(host), 0);
    }
    log.accept("admin: " + result.get(0).getHost() + " " + (result.get(0).getError().isEmpty()
        ? result.get(0).getOperationalState() : result.get(0).getError()));
  }

  /** How much later a command just received is carried out: 0 for now, always once the faults ended. */
  long delayOfCommand() {
    return !ended && chance(DELAY_COMMAND) ? 1 + (long) (random.nextDouble() * LONGEST_DELAY_MILLIS) : 0;
  }

  /** Whether a command just received is carried out twice (a retried delivery). */
  boolean duplicateCommand() {
    return !ended && chance(DUPLICATE_COMMAND);
  }

  /** Starts the nodes whose time has come. */
  void restartDue() {
    for (SimulatedDatanode node : cluster.nodes.values()) {
      if (!node.up && clock.millis() >= node.restartAtMillis) {
        node.up = true;
        node.groups.forEach(g -> cluster.groups.get(g).resume(node.id));
        log.accept(node + " starts");
      }
    }
  }

  /** Ends every fault: nodes started and heard again, every node back in service; what was lost stays lost. */
  void endAll() {
    ended = true;
    for (SimulatedDatanode node : cluster.nodes.values()) {
      if (!node.gone) {
        node.restartAtMillis = Math.min(node.restartAtMillis, clock.millis());
      }
      node.cutOffUntilMillis = 0;
      node.isolatedUntilMillis = 0;
    }
    restartDue();
    List<String> out = scm.nodes().nodes().stream().filter(n -> n.operationalState()
        != NodeOperationalState.IN_SERVICE).map(n -> cluster.nodes.get(n.id()).details.getHostName()).toList();
    if (!out.isEmpty()) {
      scm.admin().recommission(out);
    }
  }
}
