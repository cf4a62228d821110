package org.tropos.scm.simulation;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.RaftLogDirReport;
import org.tropos.proto.hdds.RaftRole;
import org.tropos.proto.hdds.StorageState;
import org.tropos.proto.hdds.VolumeReport;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.ScmCommand;

/**
 * What the simulation keeps of one datanode: whether it runs, whether SCM hears it, the Raft groups it hosts and
 * its container replicas (both on its disks: they outlive a crash, not a disk's loss), and the copies it is
 * making. What it does with SCM's commands is {@link SimulatedCluster}'s.
 */
final class SimulatedDatanode {
  static final long CAPACITY = 1L << 40;

  /**
   * A container replica: its state, the index of the last block written to it and the blocks it holds (each
   * named by the index of the entry that wrote it).
   */
  static final class Replica {
    ContainerState state = ContainerState.CONTAINER_OPEN;
    long bcsid;
    final BitSet blocks = new BitSet();
    /** Blocks deleted while the replica was open: a later replay of their entries must not bring them back. */
    final BitSet deletedWhileOpen = new BitSet();
    /** The highest deletion transaction carried out on it (a copy takes its source's). */
    long deleteTxId;
    final UUID pipeline;
    /** Whether a check ever found it damaged: it must never count as sound again. */
    boolean damaged;

    Replica(UUID pipeline) {
      this.pipeline = pipeline;
    }

    Replica closedCopy() {
      Replica copy = new Replica(pipeline);
      copy.state = ContainerState.CONTAINER_CLOSED;
      copy.bcsid = bcsid;
      copy.blocks.or(blocks);
      copy.deleteTxId = deleteTxId;
      return copy;
    }

    long blockCount() {
      return blocks.cardinality();
    }

    boolean isOpen() {
      return state == ContainerState.CONTAINER_OPEN || state == ContainerState.CONTAINER_CLOSING;
    }
  }

  /** A command received and held back, to be carried out at {@code dueMillis} (a delayed delivery). */
  record Delayed(long dueMillis, ScmCommand command) {
  }

  /** A copy under way: it lands at {@code doneAtMillis} unless the node stops first or the deadline passed. */
  record Copy(long containerId, List<UUID> sources, long doneAtMillis, long deadlineEpochMs) {
  }

  final UUID id;
  final DatanodeDetails details;
  final String rack;
  final Map<Long, Replica> replicas = new TreeMap<>();
  final Set<UUID> groups = new TreeSet<>();
  final List<Copy> copies = new ArrayList<>();
  final List<Delayed> delayed = new ArrayList<>();
  boolean up = true;
  boolean mustRegister = true;
  /** Until when SCM does not hear it (a partition between the two). */
  long cutOffUntilMillis;
  /** Until when it cannot reach the other datanodes (a partition among them; SCM still hears it). */
  long isolatedUntilMillis;
  /** Deletion transactions carried out since the last heartbeat, by container: the next heartbeat takes them. */
  final Map<Long, List<Long>> deletionAcks = new TreeMap<>();
  /** The next heartbeat's answer is lost on the way back: its commands are never carried out. */
  boolean loseNextAnswer;
  /** Gone for good (its disks lost, never started again): SCM must heal without it. */
  boolean gone;
  /** When a stopped node starts again. */
  long restartAtMillis;

  SimulatedDatanode(UUID id, String host, String rack) {
    this.id = id;
    this.rack = rack;
    this.details = DatanodeDetails.newBuilder().setUuid(Uuids.toProto(id)).setHostName(host)
        .setIpAddress("10.0.0." + host.substring(host.lastIndexOf('-') + 1)).build();
  }

  boolean hearsScm(long nowMillis) {
    return up && nowMillis >= cutOffUntilMillis;
  }

  /** Whether it runs and reaches the other datanodes: takes part in its Raft groups, copies and is copied from. */
  boolean reachesPeers(long nowMillis) {
    return up && nowMillis >= isolatedUntilMillis;
  }

  /** Stops: what it held in memory (copies under way, held commands, its registration) is gone; its disks are kept. */
  void stop(long restartAt) {
    up = false;
    copies.clear();
    delayed.clear();
    deletionAcks.clear();
    mustRegister = true;
    restartAtMillis = restartAt;
  }

  NodeReport nodeReport() {
    long used = replicas.values().stream().mapToLong(r -> r.blockCount() * SimulatedScm.BLOCK_SIZE.bytes()).sum();
    return NodeReport.newBuilder()
        .addVolumes(VolumeReport.newBuilder().setStorageLocation("/data").setState(StorageState.NORMAL)
            .setCapacityBytes(CAPACITY).setUsedBytes(used).setAvailableBytes(CAPACITY - used))
        .addRaftLogDirs(RaftLogDirReport.newBuilder().setStorageLocation("/ratis").setState(StorageState.NORMAL)
            .setCapacityBytes(CAPACITY).setAvailableBytes(CAPACITY).setRaftGroupCount(groups.size()))
        .build();
  }

  List<ContainerReport> containerReports() {
    List<ContainerReport> reports = new ArrayList<>();
    replicas.forEach((id, r) -> reports.add(ContainerReport.newBuilder().setContainerId(id).setState(r.state)
        .setBcsid(r.bcsid).setPipelineId(PipelineId.newBuilder().setId(Uuids.toProto(r.pipeline)))
        .setDeleteTxId(r.deleteTxId).setBlockCount(r.blockCount())
        .setUsedBytes(r.blockCount() * SimulatedScm.BLOCK_SIZE.bytes()).build()));
    return reports;
  }

  /** Takes the acknowledgements for the next heartbeat: lost with it if it does not reach SCM. */
  List<DeleteBlocksAck> takeDeletionAcks() {
    List<DeleteBlocksAck> acks = new ArrayList<>();
    deletionAcks.forEach((container, txIds) -> acks.add(DeleteBlocksAck.newBuilder().setContainerId(container)
        .addAllTxIds(txIds).build()));
    deletionAcks.clear();
    return acks;
  }

  List<PipelineReport> pipelineReports(Map<UUID, SimulatedGroup> all) {
    List<PipelineReport> reports = new ArrayList<>();
    for (UUID g : groups) {
      SimulatedGroup group = all.get(g);
      PipelineReport.Builder report = PipelineReport.newBuilder()
          .setPipelineId(PipelineId.newBuilder().setId(Uuids.toProto(g))).setLogDir("/ratis")
          .setTerm(group.term()).setRole(id.equals(group.leader()) ? RaftRole.LEADER : RaftRole.FOLLOWER);
      if (group.leader() != null) {
        report.setLeader(Uuids.toProto(group.leader()));
      }
      reports.add(report.build());
    }
    return reports;
  }

  @Override
  public String toString() {
    return details.getHostName();
  }
}
