package org.tropos.datanode.container;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Which containers' key ranges a volume's database compacts as containers leave OPEN, each with a flush of its
 * own (see {@link VolumeDb#flushLeavingOpen}). Every {@code batch} containers make a run, whose range is compacted
 * into a file or two; a run as large as the one before it is merged with it, as the digits of a binary counter
 * carry. So after n containers the database holds about log2(n / batch) runs besides the containers of the
 * current batch, and each record is rewritten about as many times.
 *
 * <p>Thread-safety: guarded by this object's monitor. The runs live in memory only: after a restart the files
 * they made stay as they are, and new runs start.
 */
final class ClosedContainerRuns {
  /** The container ids from {@code from} to {@code to} (inclusive), whose key range is compacted. */
  record Range(long from, long to) {
  }

  /** A compacted run: its range and how many containers left OPEN in it. */
  private record Run(long from, long to, long containers) {
    Run merge(Run newer) {
      return new Run(Math.min(from, newer.from), Math.max(to, newer.to), containers + newer.containers);
    }
  }

  private final int batch;
  /** Oldest first; each run has more containers than the one after it. */
  private final Deque<Run> runs = new ArrayDeque<>();
  private long batchFrom = Long.MAX_VALUE;
  private long batchTo = Long.MIN_VALUE;
  private int inBatch;

  ClosedContainerRuns(int batch) {
    this.batch = batch;
  }

  /** Records that {@code containerId} left OPEN; returns the ranges to compact now, in order (often none). */
  synchronized List<Range> leftOpen(long containerId) {
    batchFrom = Math.min(batchFrom, containerId);
    batchTo = Math.max(batchTo, containerId);
    if (++inBatch < batch) {
      return List.of();
    }
    Run run = new Run(batchFrom, batchTo, inBatch);
    batchFrom = Long.MAX_VALUE;
    batchTo = Long.MIN_VALUE;
    inBatch = 0;
    List<Range> toCompact = new ArrayList<>(List.of(new Range(run.from, run.to)));
    while (!runs.isEmpty() && runs.peekLast().containers <= run.containers) {
      run = runs.pollLast().merge(run);
      toCompact.add(new Range(run.from, run.to));
    }
    runs.addLast(run);
    return toCompact;
  }

  /** The runs kept, for tests. */
  synchronized int runs() {
    return runs.size();
  }
}
