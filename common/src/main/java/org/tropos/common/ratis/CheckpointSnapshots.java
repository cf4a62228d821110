package org.tropos.common.ratis;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.tropos.common.io.FileTrees;

/**
 * A Raft member's snapshots: checkpoints of its {@link CheckpointedState}, one directory
 * {@code snapshot.<term>_<index>} each in the group's state-machine directory. Ratis sends the latest one's files to
 * a follower whose next entry the leader's log no longer holds, and replaces that follower's state-machine
 * directory with them; the follower then loads the checkpoint ({@link CheckpointedState#install}). Only the newest
 * {@value #KEEP} are kept.
 */
final class CheckpointSnapshots implements StateMachineStorage {
  private static final Pattern NAME = Pattern.compile("snapshot\\.(\\d+)_(\\d+)");
  private static final int KEEP = 2;

  /** A checkpoint directory and the log position it holds the state of. */
  record Snapshot(Path dir, TermIndex termIndex) {
  }

  private volatile Path dir;
  /**
   * The latest snapshot's description: Ratis asks for it on every append to a follower, so it is listed once per
   * change of the directory (ours invalidate it; a snapshot Ratis installs shows in the directory's modification time).
   */
  private volatile Listed listed;
  private final AtomicLong changes = new AtomicLong();

  private record Listed(long change, FileTime modified, SnapshotInfo info) {
  }

  @Override
  public void init(RaftStorage raftStorage) throws IOException {
    dir = raftStorage.getStorageDir().getStateMachineDir().toPath();
    Files.createDirectories(dir);
    changed();
  }

  /** Forgets the listed latest snapshot: the directory changed (a snapshot taken, removed or installed). */
  void changed() {
    changes.incrementAndGet();
    listed = null;
  }

  @Override
  public File getSnapshotDir() {
    return dir.toFile();
  }

  /** The newest complete checkpoint, if any. */
  Optional<Snapshot> latest() throws IOException {
    return all().stream().max(Comparator.comparing(Snapshot::termIndex));
  }

  /** Checkpoints {@code state}, which holds everything up to {@code at}; returns the new snapshot. */
  Snapshot take(CheckpointedState state, TermIndex at) throws IOException {
    Path target = dir.resolve("snapshot." + at.getTerm() + "_" + at.getIndex());
    if (Files.isDirectory(target)) {
      return new Snapshot(target, at);
    }
    // Checkpointed beside, then renamed: a crash never leaves a partial directory under a snapshot's name.
    Path partial = dir.resolve("partial." + target.getFileName());
    FileTrees.delete(partial);
    state.checkpoint(partial);
    Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    changed();
    removeAllBut(KEEP);
    return new Snapshot(target, at);
  }

  @Override
  public SnapshotInfo getLatestSnapshot() {
    try {
      long change = changes.get();
      FileTime modified = Files.getLastModifiedTime(dir);
      Listed known = listed;
      if (known != null && known.change() == change && known.modified().equals(modified)) {
        return known.info();
      }
      SnapshotInfo info = list();
      if (changes.get() == change) {
        listed = new Listed(change, modified, info);
      }
      return info;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the snapshots in " + dir, e);
    }
  }

  private SnapshotInfo list() throws IOException {
    Optional<Snapshot> latest = latest();
    if (latest.isEmpty()) {
      return null;
    }
    List<FileInfo> files = new ArrayList<>();
    try (Stream<Path> listed = Files.list(latest.get().dir())) {
      for (Path file : listed.sorted().toList()) {
        if (Files.isRegularFile(file) && !file.getFileName().toString().endsWith(".md5")) {
          files.add(new FileInfo(file, null));
        }
      }
    }
    return new FileListSnapshotInfo(files, latest.get().termIndex());
  }

  @Override
  public void format() {
    // A new group starts with no snapshot: nothing to prepare.
  }

  @Override
  public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
    removeAllBut(Math.max(1, policy.getNumSnapshotsRetained()));
  }

  private void removeAllBut(int keep) throws IOException {
    List<Snapshot> all = all();
    all.sort(Comparator.comparing(Snapshot::termIndex).reversed());
    for (Snapshot old : all.subList(Math.min(keep, all.size()), all.size())) {
      FileTrees.delete(old.dir());
      changed();
    }
  }

  private List<Snapshot> all() throws IOException {
    List<Snapshot> found = new ArrayList<>();
    if (dir == null || !Files.isDirectory(dir)) {
      return found;
    }
    try (Stream<Path> listed = Files.list(dir)) {
      for (Path path : listed.toList()) {
        Matcher m = NAME.matcher(path.getFileName().toString());
        if (m.matches() && Files.isDirectory(path)) {
          found.add(new Snapshot(path, TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))));
        }
      }
    }
    return found;
  }
}
