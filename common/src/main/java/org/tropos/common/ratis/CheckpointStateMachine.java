package org.tropos.common.ratis;

import java.io.IOException;
import java.util.Optional;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A state machine whose snapshots are checkpoints of its {@link CheckpointedState} ({@link CheckpointSnapshots}),
 * taken on this member's own state-machine thread so that nothing is applied while one is written. A member whose
 * state is behind its latest snapshot (one installed from the leader, or a crash that lost unflushed writes after
 * the log before the snapshot was purged) loads the checkpoint before applying anything. Subclasses apply entries.
 */
public abstract class CheckpointStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointStateMachine.class);

  private final String name;
  private final CheckpointedState state;
  private final CheckpointSnapshots snapshots = new CheckpointSnapshots();

  /** @param name what the state is, for the log ("the OM database") */
  protected CheckpointStateMachine(String name, CheckpointedState state) {
    this.name = name;
    this.state = state;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
    super.initialize(server, groupId, storage);
    snapshots.init(storage);
    getLifeCycle().transition(LifeCycle.State.STARTING);
    loadLatestSnapshotIfBehind();
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return snapshots;
  }

  @Override
  public long takeSnapshot() throws IOException {
    TermIndex applied = getLastAppliedTermIndex();
    if (applied == null || applied.getIndex() <= 0) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    // Entries that change no row (a new term's first entry) leave the state's log index behind.
    state.recordLogIndex(applied.getIndex());
    CheckpointSnapshots.Snapshot taken = snapshots.take(state, applied);
    LOG.info("Took a snapshot of {} at {}: {}", name, applied, taken.dir());
    return applied.getIndex();
  }

  @Override
  public void pause() {
    getLifeCycle().transition(LifeCycle.State.PAUSING);
    getLifeCycle().transition(LifeCycle.State.PAUSED);
  }

  /** After Ratis installed the leader's snapshot in the state-machine directory: load it. */
  @Override
  public void reinitialize() throws IOException {
    getLifeCycle().transition(LifeCycle.State.STARTING);
    snapshots.changed();
    loadLatestSnapshotIfBehind();
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  private void loadLatestSnapshotIfBehind() throws IOException {
    Optional<CheckpointSnapshots.Snapshot> latest = snapshots.latest();
    if (latest.isEmpty()) {
      return;
    }
    TermIndex at = latest.get().termIndex();
    if (state.installing() || state.lastLogIndex() < at.getIndex()) {
      LOG.info("Loading snapshot {} into {} (at log index {}{})", latest.get().dir(), name, state.lastLogIndex(),
          state.installing() ? ", an earlier load interrupted" : "");
      state.install(latest.get().dir(), at.getIndex());
    }
    if (getLastAppliedTermIndex() == null || getLastAppliedTermIndex().compareTo(at) < 0) {
      setLastAppliedTermIndex(at);
    }
  }
}
