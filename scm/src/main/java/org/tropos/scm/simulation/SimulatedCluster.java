package org.tropos.scm.simulation;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Predicate;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.CreatePipelineCommand;
import org.tropos.proto.scm.DeleteBlocksCommand;
import org.tropos.proto.scm.DeleteBlocksTransaction;
import org.tropos.proto.scm.ScmCommand;

/**
 * The datanodes and their Raft groups: how a datanode carries out SCM's commands and applies committed entries,
 * following what the real datanode does (PipelineCommandHandler, ContainerStateMachine, ContainerStore,
 * ContainerImporter). Replica states move as the datanode's transition table allows: an UNHEALTHY replica stays
 * so, unless {@link PlantedFlaw#CLOSES_DAMAGED} is planted.
 */
final class SimulatedCluster {
  /** How long a container copy takes. */
  private static final long COPY_MILLIS = 4_000;

  final Map<UUID, SimulatedDatanode> nodes = new TreeMap<>();
  final Map<UUID, SimulatedGroup> groups = new TreeMap<>();
  private final SimulatedClock clock;
  private final PlantedFlaw flaw;

  SimulatedCluster(SimulatedClock clock, PlantedFlaw flaw) {
    this.clock = clock;
    this.flaw = flaw;
  }

  /** Whether the node runs and no partition keeps it from the other datanodes. */
  boolean reachesPeers(UUID node) {
    SimulatedDatanode n = nodes.get(node);
    return n != null && n.reachesPeers(clock.millis());
  }

  /** Whether a member can take part in {@code g}: it runs and, unless alone in it, reaches the other members. */
  private Predicate<UUID> takesPart(SimulatedGroup g) {
    return g.members.size() == 1 ? m -> nodes.get(m) != null && nodes.get(m).up : this::reachesPeers;
  }

  /** Carries out one command SCM sent {@code node}. */
  void carryOut(SimulatedDatanode node, ScmCommand command) {
    switch (command.getCommandCase()) {
      case REREGISTER -> node.mustRegister = true;
      case CREATE_PIPELINE -> join(node, command.getCreatePipeline());
      case CLOSE_PIPELINE -> leave(node, Uuids.fromProto(command.getClosePipeline().getPipelineId().getId()));
      case TRANSFER_LEADERSHIP -> {
        SimulatedGroup g = groups.get(Uuids.fromProto(command.getTransferLeadership().getPipelineId().getId()));
        if (g != null && node.id.equals(g.leader())) {
          g.transferTo(Uuids.fromProto(command.getTransferLeadership().getNewLeader()), takesPart(g));
        }
      }
      case CLOSE_CONTAINER -> closeContainer(node, command.getCloseContainer());
      case REPLICATE_CONTAINER -> {
        long id = command.getReplicateContainer().getContainerId();
        List<UUID> sources = command.getReplicateContainer().getSourcesList().stream()
            .map(d -> Uuids.fromProto(d.getUuid())).toList();
        node.copies.add(new SimulatedDatanode.Copy(id, sources, clock.millis() + COPY_MILLIS,
            command.getReplicateContainer().getDeadlineEpochMs()));
      }
      case DELETE_CONTAINER -> {
        SimulatedDatanode.Replica r = node.replicas.get(command.getDeleteContainer().getContainerId());
        if (r != null && !r.isOpen()) {
          node.replicas.remove(command.getDeleteContainer().getContainerId());
        }
      }
      case DELETE_BLOCKS -> deleteBlocks(node, command.getDeleteBlocks());
      default -> throw new IllegalStateException(node + " got a command it does not know: " + command);
    }
  }

  /**
   * Deletes each transaction's blocks from the node's replica of its container (an open replica remembers them,
   * so that a replayed entry does not bring them back) and acknowledges it; a block already gone counts as deleted.
   * A transaction of a container the node does not hold is left unacknowledged.
   */
  private static void deleteBlocks(SimulatedDatanode node, DeleteBlocksCommand command) {
    for (DeleteBlocksTransaction tx : command.getTransactionsList()) {
      SimulatedDatanode.Replica r = node.replicas.get(tx.getContainerId());
      if (r == null) {
        continue;
      }
      for (long localId : tx.getLocalIdsList()) {
        r.blocks.clear((int) localId);
        if (r.isOpen()) {
          r.deletedWhileOpen.set((int) localId);
        }
      }
      r.deleteTxId = Math.max(r.deleteTxId, tx.getTxId());
      node.deletionAcks.computeIfAbsent(tx.getContainerId(), c -> new ArrayList<>()).add(tx.getTxId());
    }
  }

  private void join(SimulatedDatanode node, CreatePipelineCommand create) {
    UUID id = Uuids.fromProto(create.getPipelineId().getId());
    List<UUID> members = create.getMembersList().stream().map(DatanodeDetails::getUuid).map(Uuids::fromProto)
        .toList();
    SimulatedGroup g = groups.computeIfAbsent(id, k -> new SimulatedGroup(id, members,
        Uuids.fromProto(create.getSuggestedLeader())));
    g.join(node.id);
    node.groups.add(id);
  }

  /** Leaves a group and removes its directory: the entries it did not apply are gone for this member. */
  void leave(SimulatedDatanode node, UUID group) {
    SimulatedGroup g = groups.get(group);
    node.groups.remove(group);
    if (g != null) {
      g.leave(node.id);
      if (!g.hostedByAnyone()) {
        groups.remove(group);
      }
    }
  }

  private void closeContainer(SimulatedDatanode node, CloseContainerCommand close) {
    SimulatedDatanode.Replica r = node.replicas.get(close.getContainerId());
    if (close.getForce()) {
      if (r != null && r.state == ContainerState.CONTAINER_QUASI_CLOSED) {
        r.state = ContainerState.CONTAINER_CLOSED;
      }
    } else if (close.getQuasi()) {
      if (r != null && r.isOpen()) {
        r.state = ContainerState.CONTAINER_QUASI_CLOSED;
      }
    } else if (r == null || r.state != ContainerState.CONTAINER_CLOSED) {
      SimulatedGroup g = groups.get(Uuids.fromProto(close.getPipelineId().getId()));
      if (g != null && node.id.equals(g.leader())) {
        commit(g, close.getContainerId(), true);
      }
    }
  }

  /** What became of an entry: its index (0 if it could not commit), and whether the leader took it as a write. */
  record Commit(long index, boolean written) {
    static final Commit NONE = new Commit(0, false);
  }

  /** Commits an entry through {@code g} and applies it on every member up and hosting the group. */
  Commit commit(SimulatedGroup g, long containerId, boolean close) {
    SimulatedGroup.Entry entry = g.append(containerId, close, takesPart(g));
    if (entry == null) {
      return Commit.NONE;
    }
    boolean written = false;
    for (UUID m : g.members) {
      if (g.live(m, takesPart(g)) && g.applied(m) == entry.index() - 1) {
        boolean took = apply(nodes.get(m), g, entry);
        g.markApplied(m, entry.index());
        written |= took && m.equals(g.leader());
      }
    }
    return new Commit(entry.index(), written);
  }

  /** Lets members that are back catch up with their groups' logs, and groups elect leaders. */
  void catchUp() {
    for (SimulatedGroup g : groups.values()) {
      g.elect(takesPart(g));
      if (g.leader() == null) {
        continue;
      }
      for (UUID m : g.members) {
        if (g.live(m, takesPart(g))) {
          for (SimulatedGroup.Entry e : g.after(g.applied(m))) {
            apply(nodes.get(m), g, e);
            g.markApplied(m, e.index());
          }
        }
      }
    }
  }

  /** Applies a committed entry to a member's replica; true for a write the replica took. */
  private boolean apply(SimulatedDatanode node, SimulatedGroup g, SimulatedGroup.Entry entry) {
    SimulatedDatanode.Replica r = node.replicas.get(entry.containerId());
    if (entry.close()) {
      // A QUASI_CLOSED replica is SCM's to close (ContainerStore.closeThroughPipeline): it may lack entries.
      boolean closable = r != null && (r.isOpen()
          || (r.state == ContainerState.CONTAINER_UNHEALTHY && flaw == PlantedFlaw.CLOSES_DAMAGED));
      if (closable) {
        r.state = ContainerState.CONTAINER_CLOSED;
      }
      return false;
    }
    if (r == null) {
      r = new SimulatedDatanode.Replica(g.id);
      node.replicas.put(entry.containerId(), r);
    }
    if (!r.isOpen()) {
      return false;
    }
    r.bcsid = entry.index();
    if (!r.deletedWhileOpen.get((int) entry.index())) {
      r.blocks.set((int) entry.index());
    }
    return true;
  }

  /**
   * Lands the copies that are due on up nodes: from the first source up that holds a closed, sound replica, both
   * reaching the other datanodes.
   */
  void landCopies() {
    for (SimulatedDatanode node : nodes.values()) {
      Iterator<SimulatedDatanode.Copy> due = node.copies.iterator();
      while (due.hasNext()) {
        SimulatedDatanode.Copy copy = due.next();
        if (!node.up || copy.doneAtMillis() > clock.millis()) {
          continue;
        }
        due.remove();
        // A node cut off from the others fails its copies (SCM sends them again once they time out).
        if (clock.wallTime().toEpochMilli() > copy.deadlineEpochMs() || node.replicas.containsKey(copy.containerId())
            || !reachesPeers(node.id)) {
          continue;
        }
        for (UUID source : copy.sources()) {
          SimulatedDatanode.Replica r = reachesPeers(source) ? nodes.get(source).replicas.get(copy.containerId())
              : null;
          if (r != null && !r.isOpen() && r.state != ContainerState.CONTAINER_UNHEALTHY) {
            node.replicas.put(copy.containerId(), r.closedCopy());
            break;
          }
        }
      }
    }
  }
}
