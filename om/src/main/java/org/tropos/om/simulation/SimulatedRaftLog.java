package org.tropos.om.simulation;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.StaleWriteSetException;
import org.tropos.om.occ.BatchLog;
import org.tropos.om.ratis.OmStateMachine;
import org.tropos.om.ratis.RatisBatchLog;
import org.tropos.proto.om.db.JournalEntry;

/**
 * OM HA's Raft log as the simulation plays it (issue 44): the leader's batches wait in it, as many in flight as
 * {@link RatisBatchLog} allows, until the simulation commits the oldest (applied as every member applies an
 * entry, {@link OmStateMachine#apply}) or deposes the leader. One database stands for every OM: each applies
 * the same committed entries in the same order, and a new leader serves only once it has applied all of them,
 * so which OM leads changes only the object ids' term.
 *
 * <p>Not thread-safe: the simulation's thread and the client holding the turn use it one at a time.
 */
final class SimulatedRaftLog implements BatchLog {
  /** A batch's entry, with the simulation step that validated it. */
  private record Entry(JournalEntry entry, long step, CompletableFuture<Void> applied) {
  }

  /** Committed entries; index i holds log index i + 1. */
  private final List<Entry> committed = new ArrayList<>();
  private final ArrayDeque<Entry> inFlight = new ArrayDeque<>();
  private final Set<Long> appliedSteps = new HashSet<>();
  /** The last committed entry the database has applied or refused: those after it are not in it yet. */
  private long handledIndex;
  private long stepOfNext;

  /** The entries appended from now on were validated by step {@code step}. */
  void stepStarts(long step) {
    stepOfNext = step;
  }

  @Override
  public void append(JournalEntry entry) {
    throw new UnsupportedOperationException("the simulated log's entries wait for the simulation: appendAsync");
  }

  @Override
  public CompletableFuture<Void> appendAsync(JournalEntry entry) {
    CompletableFuture<Void> applied = new CompletableFuture<>();
    inFlight.add(new Entry(entry, stepOfNext, applied));
    return applied;
  }

  @Override
  public int maxInFlight() {
    return RatisBatchLog.IN_FLIGHT;
  }

  /** How many entries wait for a majority. */
  int inFlight() {
    return inFlight.size();
  }

  /**
   * The step of the oldest entry the database has not applied (committed and waiting for the next leader, or in
   * flight): the database holds nothing of that step or of those after it. -1 when it holds every step's.
   */
  long oldestStepNotApplied() {
    if (handledIndex < committed.size()) {
      return committed.get((int) handledIndex).step();
    }
    return inFlight.isEmpty() ? -1 : inFlight.peekFirst().step();
  }

  /** Whether the batch of {@code step} was applied to the database. */
  boolean applied(long step) {
    return appliedSteps.contains(step);
  }

  /**
   * A majority took the oldest entry in flight: it is committed and the leader applies it to {@code db},
   * answering its batch. An I/O error while applying fails the batch as the Raft group would when its leader
   * stops (fail-stop, {@link OmStateMachine}); the entry stays committed, for the next leader to apply.
   */
  void commitOldest(OmDb db) throws IOException {
    Entry next = inFlight.removeFirst();
    committed.add(next);
    try {
      if (apply(db, committed.size())) {
        next.applied().complete(null);
      } else {
        next.applied().completeExceptionally(new StaleWriteSetException("the batch of step " + next.step()
            + " does not follow the namespace it reached"));
      }
    } catch (IOException e) {
      next.applied().completeExceptionally(new UnavailableException("the leader stopped applying: " + e, e));
      throw e;
    }
  }

  /**
   * The leader is deposed (or stops): the first {@code reached} entries in flight had reached a majority and are
   * committed, to be applied by the next leader; the others are lost. The deposed leader answers none of them.
   */
  void deposeLeader(int reached) {
    for (int i = 0; !inFlight.isEmpty(); i++) {
      Entry entry = inFlight.removeFirst();
      if (i < reached) {
        committed.add(entry);
      }
      entry.applied().completeExceptionally(new UnavailableException("the leader was deposed before the batch of"
          + " step " + entry.step() + " was applied", null));
    }
  }

  /**
   * Applies to {@code db} every committed entry after the last it holds: a new leader catching up before it
   * serves, or an OM replaying its log after a restart (RocksDB kept a prefix of what it had applied).
   */
  void catchUp(OmDb db) throws IOException {
    handledIndex = db.lastLogIndex();
    for (long index = db.lastLogIndex() + 1; index <= committed.size(); index++) {
      apply(db, index);
    }
  }

  private boolean apply(OmDb db, long index) throws IOException {
    Entry entry = committed.get((int) index - 1);
    boolean applied = OmStateMachine.apply(db, entry.entry(), index).equals(OmStateMachine.APPLIED);
    if (applied) {
      appliedSteps.add(entry.step());
    }
    handledIndex = index;
    return applied;
  }
}
