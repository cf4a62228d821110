package org.tropos.scm.container;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongPredicate;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.pipeline.PipelineManager;

/**
 * Sends the commands that close CLOSING containers: to the pipeline's leader, which closes the container through
 * the Raft group, or, for an erasure-coded container (no Raft group), to every member for its own replica. Sent
 * again at every round until the replicas report CLOSED.
 *
 * <p>Not thread-safe: the container manager guards it.
 */
final class ContainerCloser {
  private final ContainerTable table;
  private final PipelineManager pipelines;
  private final CommandQueue commands;
  /** Containers that were CLOSING at the last {@link #closeFullContainers()} round. */
  private Set<Long> closingAtLastRound = Set.of();

  ContainerCloser(ContainerTable table, PipelineManager pipelines, CommandQueue commands) {
    this.table = table;
    this.pipelines = pipelines;
    this.commands = commands;
  }

  /**
   * The periodic round: closes each container that was CLOSING already at the previous round. A container turns
   * CLOSING when its last block is allocated, and that block is still being written; closing it at once would fail
   * that write (the client then resends it elsewhere). One round's grace lets it finish.
   */
  void closeFullContainers() {
    Set<Long> closing = new HashSet<>();
    table.all().stream().filter(c -> c.getState() == ContainerState.CONTAINER_CLOSING)
        .forEach(c -> closing.add(c.getContainerId()));
    Set<Long> due = new HashSet<>(closing);
    due.retainAll(closingAtLastRound);
    closingAtLastRound = closing;
    sendCloseCommands(due::contains);
  }

  /** Closes these CLOSING containers now. */
  void close(Set<Long> ids) {
    if (!ids.isEmpty()) {
      sendCloseCommands(ids::contains);
    }
  }

  /** Closes every CLOSING container now. */
  void closeContainers() {
    sendCloseCommands(id -> true);
  }

  private void sendCloseCommands(LongPredicate which) {
    Map<UUID, UUID> leaders = new HashMap<>();
    pipelines.list(PipelineState.PIPELINE_STATE_UNSPECIFIED).forEach(p -> {
      if (p.leader() != null) {
        leaders.put(Uuids.fromProto(p.record().getId().getId()), p.leader());
      }
    });
    for (ContainerRecord c : table.all()) {
      if (c.getState() != ContainerState.CONTAINER_CLOSING || !which.test(c.getContainerId())) {
        continue;
      }
      if (c.hasEc()) {
        for (int i = 0; i < c.getMembersCount(); i++) {
          ScmCommand close = closeCommand(c, false);
          commands.add(Uuids.fromProto(c.getMembers(i)), close.toBuilder().setCloseContainer(close
              .getCloseContainer().toBuilder().setEc(c.getEc()).setReplicaIndex(i + 1)).build());
        }
        continue;
      }
      UUID leader = leaders.get(Uuids.fromProto(c.getPipelineId().getId()));
      if (leader != null) {
        commands.add(leader, closeCommand(c, false));
      }
    }
  }

  /** A CloseContainer command; {@code quasi}: the member closes its own replica, its pipeline being gone. */
  static ScmCommand closeCommand(ContainerRecord c, boolean quasi) {
    return ScmCommand.newBuilder().setCloseContainer(CloseContainerCommand.newBuilder()
        .setContainerId(c.getContainerId()).setPipelineId(c.getPipelineId()).setQuasi(quasi)).build();
  }
}
