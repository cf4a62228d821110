package org.tropos.scm.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A pipeline's Raft group as the simulation models it: the log of committed entries and, per member that hosts
 * the group, how much of it the member applied. An entry commits when a majority of the members is up and hosts
 * the group, with a leader among them; members that are up apply it at once, the others catch up from the leader
 * when they are back (as long as they still host the group). A member whose state machine failed halts until its
 * datanode restarts. A member that leaves the group loses its copy of the log, as a datanode removing its group
 * directory does.
 */
final class SimulatedGroup {
  /** A committed entry: a block written to a container, or the container closed. */
  record Entry(long index, long containerId, boolean close) {
  }

  final UUID id;
  final List<UUID> members;
  final UUID suggestedLeader;
  private final List<Entry> log = new ArrayList<>();
  /** Per hosting member, the index of the last entry it applied. */
  private final Map<UUID, Long> applied = new TreeMap<>();
  /** Members that stopped applying the log (fail-stop) until their datanode restarts. */
  private final Set<UUID> halted = new TreeSet<>();
  private UUID leader;
  private long term;

  SimulatedGroup(UUID id, List<UUID> members, UUID suggestedLeader) {
    this.id = id;
    this.members = List.copyOf(members);
    this.suggestedLeader = suggestedLeader;
  }

  boolean hostedBy(UUID member) {
    return applied.containsKey(member);
  }

  boolean hostedByAnyone() {
    return !applied.isEmpty();
  }

  void join(UUID member) {
    applied.putIfAbsent(member, 0L);
  }

  /** The member stops applying, as a Raft group member whose state machine failed: it takes no part until resumed. */
  void halt(UUID member) {
    halted.add(member);
    if (member.equals(leader)) {
      leader = null;
    }
  }

  /** Its datanode restarted: the member loads the group again and catches up. */
  void resume(UUID member) {
    halted.remove(member);
  }

  /** Whether the member takes part: it hosts the group, its datanode runs and it has not halted. */
  boolean live(UUID member, Predicate<UUID> up) {
    return hostedBy(member) && up.test(member) && !halted.contains(member);
  }

  void leave(UUID member) {
    applied.remove(member);
    halted.remove(member);
    if (member.equals(leader)) {
      leader = null;
    }
  }

  long applied(UUID member) {
    return applied.getOrDefault(member, 0L);
  }

  void markApplied(UUID member, long index) {
    applied.put(member, index);
  }

  /** The entries after {@code index}, to apply. */
  List<Entry> after(long index) {
    return log.subList((int) index, log.size());
  }

  long lastIndex() {
    return log.size();
  }

  UUID leader() {
    return leader;
  }

  long term() {
    return term;
  }

  /**
   * Elects a leader if there is none or it is gone: the suggested leader if it can be, else the first of the
   * members up, hosting and holding the whole log; none without a majority of the members up and hosting.
   */
  void elect(Predicate<UUID> up) {
    List<UUID> voters = members.stream().filter(m -> live(m, up)).toList();
    if (voters.size() * 2 <= members.size()) {
      leader = null;
      return;
    }
    if (leader != null && voters.contains(leader)) {
      return;
    }
    List<UUID> current = voters.stream().filter(m -> applied(m) == lastIndex()).toList();
    UUID chosen = current.contains(suggestedLeader) ? suggestedLeader : current.isEmpty() ? null : current.get(0);
    if (chosen != null) {
      leader = chosen;
      term++;
    }
  }

  /** Hands leadership to {@code target} if it hosts the group, is up and holds the whole log. */
  boolean transferTo(UUID target, Predicate<UUID> up) {
    if (leader == null || !live(target, up) || applied(target) != lastIndex()) {
      return false;
    }
    leader = target;
    term++;
    return true;
  }

  /** Appends an entry if a majority is up with a leader; null if it cannot commit now. */
  Entry append(long containerId, boolean close, Predicate<UUID> up) {
    elect(up);
    if (leader == null) {
      return null;
    }
    Entry entry = new Entry(log.size() + 1, containerId, close);
    log.add(entry);
    return entry;
  }
}
