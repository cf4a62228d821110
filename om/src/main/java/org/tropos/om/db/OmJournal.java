package org.tropos.om.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.tropos.common.util.Closer;
import org.tropos.common.util.Threads;

/**
 * The OM's write-ahead journal (directory {@code journal} inside the RocksDB directory): every group commit is
 * appended and synced here, then applied to RocksDB without RocksDB's own WAL. Why not RocksDB's WAL: it
 * appends, and a sync that grows a file must also commit file-system metadata; the journal overwrites files
 * written once before, which syncs faster on this disk (docs/benchmarks.md) — the NameNode's edit log does the
 * same with its preallocated segments.
 *
 * <p>Two {@link JournalSegment}s are used in turn. When the active one is full the journal moves to the other
 * and asks for a checkpoint (a RocksDB flush, in the background); it must finish before the segment just left
 * is reused, so a segment older than the last checkpoint holds nothing RocksDB lacks.
 *
 * <p>Use: {@link #open}, {@link #records()} (replay what RocksDB lacks and make it durable), {@link #reset()},
 * then {@link #append}. Not thread-safe: the committer's thread.
 */
public final class OmJournal implements AutoCloseable {
  public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

  /** Makes everything applied so far durable without the journal. */
  @FunctionalInterface
  public interface Checkpoint {
    void run() throws IOException;
  }

  private final JournalSegment[] segments;
  private final long segmentBytes;
  private final Checkpoint checkpoint;
  private final ExecutorService checkpoints = Threads.boundedPool("om-journal-checkpoint", 1, 1);
  private Future<Void> pendingCheckpoint = CompletableFuture.completedFuture(null);
  private int active;

  private OmJournal(JournalSegment[] segments, long segmentBytes, Checkpoint checkpoint) {
    this.segments = segments;
    this.segmentBytes = segmentBytes;
    this.checkpoint = checkpoint;
    this.active = segments[1].generation() > segments[0].generation() ? 1 : 0;
  }

  /** Opens (creating if needed) the journal's segments {@code journal-0} and {@code journal-1} in {@code dir}. */
  public static OmJournal open(Path dir, long segmentBytes, Checkpoint checkpoint) throws IOException {
    if (segmentBytes < 2L * JournalSegment.HEADER_BYTES) {
      throw new IllegalArgumentException("journal segments of " + segmentBytes + " bytes are too small");
    }
    Files.createDirectories(dir);
    JournalSegment[] segments = new JournalSegment[2];
    try {
      for (int i = 0; i < segments.length; i++) {
        segments[i] = JournalSegment.open(dir.resolve("journal-" + i), segmentBytes);
      }
    } catch (IOException | RuntimeException e) {
      Closer.closeAll("OM journal", segments);
      throw e;
    }
    return new OmJournal(segments, segmentBytes, checkpoint);
  }

  /** The records of both segments, the older round first, each in append order. */
  public List<byte[]> records() throws IOException {
    List<byte[]> records = new ArrayList<>(segments[1 - active].records());
    records.addAll(segments[active].records());
    return records;
  }

  /**
   * Empties the journal once every record is durable in RocksDB: both segments start new rounds, so none of
   * their old records counts any more, and appends go to the newer one.
   */
  public void reset() throws IOException {
    // Generations start at 1, so a zero-filled record header (generation 0) never counts.
    long newest = Math.max(0, Math.max(segments[0].generation(), segments[1].generation()));
    segments[active].restart(newest + 1);
    segments[1 - active].restart(newest + 2);
    active = 1 - active;
  }

  /** Refuses a record that no segment could hold (before anything is written). */
  public void checkFits(int recordBytes) throws IOException {
    if (JournalSegment.HEADER_BYTES + JournalSegment.RECORD_OVERHEAD + (long) recordBytes > segmentBytes) {
      throw new IOException("a journal record of " + recordBytes + " bytes is larger than a journal segment ("
          + segmentBytes + " bytes)");
    }
  }

  /** Appends one record and syncs it; returns once it is durable. */
  public void append(byte[] record) throws IOException {
    checkFits(record.length);
    JournalSegment current = segments[active];
    if (!current.fits(record.length)) {
      current = rollOver();
    }
    current.append(record);
  }

  private JournalSegment rollOver() throws IOException {
    awaitCheckpoint();
    JournalSegment next = segments[1 - active];
    next.restart(segments[active].generation() + 1);
    active = 1 - active;
    pendingCheckpoint = checkpoints.submit(() -> {
      checkpoint.run();
      return null;
    });
    return next;
  }

  /** Waits for the checkpoint that frees the other segment; if it failed, runs it again here. */
  private void awaitCheckpoint() throws IOException {
    try {
      pendingCheckpoint.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a journal checkpoint", e);
    } catch (ExecutionException e) {
      checkpoint.run();
    }
  }

  @Override
  public void close() {
    Threads.shutdown(checkpoints, STOP_TIMEOUT);
    Closer.closeAll("OM journal", segments);
  }
}
