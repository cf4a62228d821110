package org.tropos.common.ratis;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A replicated service's state as its {@link CheckpointStateMachine} snapshots it: a RocksDB database that records
 * the Raft log index it has applied, checkpoints itself, and loads another replica's checkpoint.
 */
public interface CheckpointedState {
  /** The Raft log index of the last entry applied to the state. */
  long lastLogIndex();

  /** Records that the state holds everything up to {@code logIndex} (entries that changed no row advance it). */
  void recordLogIndex(long logIndex) throws IOException;

  /** Writes a consistent copy of the state to {@code target}, which does not exist yet. */
  void checkpoint(Path target) throws IOException;

  /** Whether a load of a checkpoint was interrupted (a crash): the state is incomplete until it is redone. */
  boolean installing() throws IOException;

  /** Replaces the state with {@code checkpoint}'s, which holds everything up to {@code logIndex}. */
  void install(Path checkpoint, long logIndex) throws IOException;
}
