package org.tropos.scm.pipeline;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.RaftRole;
import org.tropos.proto.scm.db.PipelineRecord;

/**
 * One pipeline as SCM tracks it: its persisted record plus what its members last reported. Mutable; owned by
 * {@link PipelineManager} and guarded by its lock.
 */
final class TrackedPipeline {
  PipelineRecord record;
  final UUID id;
  final List<UUID> members;
  /** The last report of each member that currently hosts the group. */
  final Map<UUID, PipelineReport> reports = new HashMap<>();
  /** When a create command was last sent to each member (monotonic ms). */
  final Map<UUID, Long> createSentAt = new HashMap<>();
  /** A leadership transfer under way: its target and when SCM stops waiting for it. */
  UUID transferTarget;
  long transferDeadline;

  TrackedPipeline(PipelineRecord record) {
    this.record = record;
    this.id = Uuids.fromProto(record.getId().getId());
    this.members = record.getMembersList().stream().map(Uuids::fromProto).toList();
  }

  PipelineState state() {
    return record.getState();
  }

  boolean isMember(UUID node) {
    return members.contains(node);
  }

  /**
   * The leader the members report: the member reporting itself LEADER in the highest term (an old leader may
   * not have heard of the new term yet), else one they all name; else null.
   */
  UUID leader() {
    UUID selfReported = reports.entrySet().stream().filter(e -> e.getValue().getRole() == RaftRole.LEADER)
        .max(Comparator.comparingLong(e -> e.getValue().getTerm())).map(Map.Entry::getKey).orElse(null);
    if (selfReported != null) {
      return selfReported;
    }
    List<UUID> named = reports.values().stream().filter(PipelineReport::hasLeader)
        .map(r -> Uuids.fromProto(r.getLeader())).distinct().toList();
    return named.size() == 1 && reports.size() == members.size() ? named.get(0) : null;
  }

  /** The reported leader, else the suggested one: who counts as leading it for placement. */
  UUID leaderOrSuggested() {
    return Objects.requireNonNullElse(leader(), Uuids.fromProto(record.getSuggestedLeader()));
  }

  /** Every member hosts the group and they agree on a leader. */
  boolean isFormed() {
    UUID leader = leader();
    return leader != null && reports.size() == members.size() && reports.values().stream()
        .allMatch(r -> r.hasLeader() && Uuids.fromProto(r.getLeader()).equals(leader));
  }
}
