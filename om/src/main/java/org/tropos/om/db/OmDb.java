package org.tropos.om.db;

import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.db.ReadView;
import org.tropos.common.ratis.CheckpointedState;
import org.tropos.common.util.Closer;
import org.tropos.proto.om.db.JournalChange;
import org.tropos.proto.om.db.JournalEntry;

/**
 * The OM's RocksDB: one column family per {@link OmTable}, rows encoded by {@link RowCodec}, keys by
 * {@link OmDbKeys}. Besides rows, {@code meta} holds the layout version, the last committed transaction id and
 * the object-id high-water mark. A database of a newer layout is refused.
 *
 * <p>Committed batches go to the {@link OmJournal} (directory {@code journal} inside the database's), then to
 * RocksDB without its WAL; opening replays the journal entries RocksDB lacks (layout 2; layout 1 databases had
 * every batch in RocksDB's WAL and are upgraded on open). Layout 3 adds {@code keyVersions}: a layout-2 database
 * has none, and its keys read as the "null" versions they are; older OMs refuse layout 3. Layout 5 adds
 * {@code delegationTokens}, which older OMs cannot open; layout 6 {@code s3Policies}, {@code s3Users} and
 * {@code s3Groups}; layout 7 keys encrypted at rest, which an older OM would serve as their ciphertext; layout 8
 * {@code prefixes} (prefix ACLs).
 */
public final class OmDb implements CheckpointedState, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OmDb.class);
  public static final int LAYOUT_VERSION = 8;
  private static final byte[] LAYOUT = utf8("layoutVersion");
  private static final byte[] LAST_TX = utf8("lastTxId");
  private static final byte[] LAST_LOG_INDEX = utf8("lastLogIndex");
  private static final byte[] OBJECT_ID_HIGH_WATER = utf8("objectIdHighWater");
  /** Set (to the snapshot's log index) while a snapshot is being installed: the rows are then incomplete. */
  private static final byte[] INSTALLING = utf8("installingSnapshot");
  private static final List<String> FAMILIES = Arrays.stream(OmTable.values()).map(OmTable::family).toList();

  private final ManagedRocksDb db;
  private final OmJournal journal;
  private final int replayed;
  /** Written by the one thread that applies (committer or Raft state machine), read by any. */
  private volatile long lastTxId;
  private volatile long lastLogIndex;
  /**
   * Set when a write set failed after its journal record was written (a failed sync, a failed RocksDB write): the
   * record may be durable while RocksDB lacks the rows, so a write set validated now could contradict it when the
   * journal is replayed. Like the NameNode with its edit log, the database then takes no more writes; a restart
   * replays the journal and starts clean.
   */
  private volatile Exception failedWrite;

  private OmDb(ManagedRocksDb db, OmJournal journal) throws IOException {
    this.db = db;
    this.journal = journal;
    this.lastTxId = metaLong(LAST_TX);
    this.lastLogIndex = metaLong(LAST_LOG_INDEX);
    this.replayed = replay(journal.records());
    journal.reset();
  }

  public static OmDb open(Path dir) throws IOException {
    return open(dir, OmJournal.DEFAULT_SEGMENT_BYTES);
  }

  /** Opens with journal segments of {@code segmentBytes} (small ones let tests roll over often). */
  static OmDb open(Path dir, long segmentBytes) throws IOException {
    ManagedRocksDb db = ManagedRocksDb.open(dir, FAMILIES);
    OmJournal journal = null;
    try {
      checkLayout(db, dir);
      journal = OmJournal.open(dir.resolve("journal"), segmentBytes, db::flush);
      return new OmDb(db, journal);
    } catch (IOException | RuntimeException e) {
      Closer.closeAll("OM database", journal, db);
      throw e;
    }
  }

  private static void checkLayout(ManagedRocksDb db, Path dir) throws IOException {
    int layout = readableLayout(db, dir);
    if (layout < LAYOUT_VERSION) {
      db.put(OmTable.META.family(), LAYOUT, utf8(Integer.toString(LAYOUT_VERSION)));
    }
  }

  private static int readableLayout(ManagedRocksDb db, Path dir) throws IOException {
    byte[] stored = db.get(OmTable.META.family(), LAYOUT);
    int layout = stored == null ? 0 : Integer.parseInt(new String(stored, StandardCharsets.UTF_8));
    if (layout > LAYOUT_VERSION) {
      throw new IOException("OM database " + dir + " has layout " + layout + "; this version reads up to "
          + LAYOUT_VERSION);
    }
    return layout;
  }

  /** Applies the journal entries after RocksDB's last transaction, in an unbroken chain, then flushes. */
  private int replay(List<byte[]> records) throws IOException {
    int count = 0;
    for (byte[] record : records) {
      JournalEntry entry = JournalEntry.parseFrom(record);
      if (entry.getLastTxId() <= lastTxId) {
        continue;
      }
      if (entry.getPreviousTxId() != lastTxId) {
        throw new IOException("OM journal: an entry follows transaction " + entry.getPreviousTxId()
            + " but the database ends at " + lastTxId + "; refusing to open a namespace with a gap");
      }
      writeToDb(entry);
      count++;
    }
    if (count > 0) {
      db.flush();
    }
    return count;
  }

  /** How many journal entries opening replayed (those RocksDB had not made durable before a crash). */
  public int replayedOnOpen() {
    return replayed;
  }

  /** A consistent view for one request's read phase; close it. */
  public ReadView snapshot() {
    return db.snapshot();
  }

  /** The latest committed state, for validation. */
  public ReadView latest() {
    return db.latest();
  }

  /** About how many rows {@code table} holds (RocksDB's estimate; -1 when it cannot tell). */
  public long estimatedRows(OmTable table) {
    return db.estimatedRows(table.family());
  }

  public long lastTxId() {
    return lastTxId;
  }

  /** With OM HA, the Raft log index of the last entry applied (0 for a single OM). */
  @Override
  public long lastLogIndex() {
    return lastLogIndex;
  }

  public long objectIdHighWater() throws IOException {
    return metaLong(OBJECT_ID_HIGH_WATER);
  }

  public void setObjectIdHighWater(long value) throws IOException {
    db.put(OmTable.META.family(), OBJECT_ID_HIGH_WATER, longBytes(value));
  }

  private long metaLong(byte[] key) throws IOException {
    byte[] value = db.get(OmTable.META.family(), key);
    return value == null ? 0 : ByteBuffer.wrap(value).getLong();
  }

  /** One stored change: {@code value} null deletes the row. */
  public record Change(OmTable table, byte[] key, byte[] value) {
  }

  /** Applies validated changes atomically: journaled and synced, then written to RocksDB. */
  public void apply(List<Change> changes, long newLastTxId) throws IOException {
    append(entry(changes, newLastTxId));
  }

  /**
   * The validated write set as it is journaled (and, with OM HA, replicated): its changes, chained to the
   * transaction this database ends at. Deterministic: the same changes on the same database give the same bytes.
   */
  public JournalEntry entry(List<Change> changes, long newLastTxId) {
    return writeSet(lastTxId, changes, newLastTxId);
  }

  /** The write set of {@code changes}, validated against the namespace at transaction {@code previousTxId}. */
  public static JournalEntry writeSet(long previousTxId, List<Change> changes, long newLastTxId) {
    JournalEntry.Builder entry = JournalEntry.newBuilder().setPreviousTxId(previousTxId).setLastTxId(newLastTxId);
    for (Change c : changes) {
      JournalChange.Builder change = entry.addChangesBuilder().setTable(c.table().family())
          .setKey(UnsafeByteOperations.unsafeWrap(c.key()));
      if (c.value() != null) {
        change.setValue(UnsafeByteOperations.unsafeWrap(c.value()));
      }
    }
    return entry.build();
  }

  /**
   * Applies a write set: journaled and synced, then written to RocksDB. Refused unless it follows the transaction
   * this database ends at, so an entry validated against another state (a deposed leader's) changes nothing.
   */
  public void append(JournalEntry entry) throws IOException {
    if (entry.getPreviousTxId() != lastTxId) {
      throw new StaleWriteSetException("a write set following transaction " + entry.getPreviousTxId()
          + " cannot apply to a namespace at transaction " + lastTxId);
    }
    if (failedWrite != null) {
      throw new IOException("the OM database takes no more writes after one failed part-way (" + failedWrite
          + "); restart the OM: it replays its journal", failedWrite);
    }
    byte[] record = entry.toByteArray();
    journal.checkFits(record.length);
    try {
      journal.append(record);
      writeToDb(entry);
    } catch (IOException | RuntimeException e) {
      failedWrite = e;
      LOG.error("OM database: a write set failed part-way; no more writes until the OM restarts and replays its"
          + " journal", e);
      throw e;
    }
  }

  /**
   * Applies a write set the OMs' Raft log has made durable (OM HA): to RocksDB only, with no journal and no sync.
   * After a crash RocksDB holds a prefix of the entries (flushes are atomic across column families) and the Raft
   * log, kept whole while no snapshot is taken, replays what follows it ({@link #lastLogIndex}). Refused, like
   * {@link #append}, unless it follows the transaction this database ends at.
   */
  public void applyCommitted(JournalEntry entry) throws IOException {
    if (entry.getPreviousTxId() != lastTxId) {
      throw new StaleWriteSetException("a write set following transaction " + entry.getPreviousTxId()
          + " cannot apply to a namespace at transaction " + lastTxId);
    }
    writeToDb(entry);
  }

  /**
   * Writes a write set's rows, then moves {@link #lastTxId}: whoever reads the transaction id and then a view
   * (a validator) gets a view that holds at least that transaction.
   */
  private void writeToDb(JournalEntry entry) throws IOException {
    db.writeBatchUnlogged(batch -> {
      for (JournalChange c : entry.getChangesList()) {
        if (c.hasValue()) {
          batch.put(c.getTable(), c.getKey().toByteArray(), c.getValue().toByteArray());
        } else {
          batch.delete(c.getTable(), c.getKey().toByteArray());
        }
      }
      batch.put(OmTable.META.family(), LAST_TX, longBytes(entry.getLastTxId()));
      if (entry.getLogIndex() > 0) {
        batch.put(OmTable.META.family(), LAST_LOG_INDEX, longBytes(entry.getLogIndex()));
      }
    });
    lastTxId = entry.getLastTxId();
    if (entry.getLogIndex() > 0) {
      lastLogIndex = entry.getLogIndex();
    }
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(8).putLong(value).array();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Writes a RocksDB checkpoint of this database to {@code target} (OM HA's snapshot of the state at the log index
   * it records): everything applied so far, flushed first.
   */
  @Override
  public void checkpoint(Path target) throws IOException {
    db.checkpoint(target);
  }

  /**
   * Records that the database holds the state at Raft log index {@code logIndex} (OM HA: entries that are not
   * write sets advance the log without changing a row). Durable with the next flush.
   */
  @Override
  public void recordLogIndex(long logIndex) throws IOException {
    if (logIndex > lastLogIndex) {
      db.writeBatchUnlogged(batch -> batch.put(OmTable.META.family(), LAST_LOG_INDEX, longBytes(logIndex)));
      lastLogIndex = logIndex;
    }
  }

  /** Whether a snapshot's installation was interrupted (a crash): the rows are incomplete until it is redone. */
  @Override
  public boolean installing() throws IOException {
    return metaLong(INSTALLING) != 0;
  }

  /**
   * Replaces every row with those of {@code checkpoint}, a leader's {@link #checkpoint} at Raft log index
   * {@code logIndex} (OM HA: a follower that fell behind the leader's log). Only while nothing else writes: the
   * state machine is paused. A crash part-way leaves {@link #installing} set, and the installation is redone from
   * the same checkpoint on the next start.
   */
  @Override
  public void install(Path checkpoint, long logIndex) throws IOException {
    try (ManagedRocksDb source = ManagedRocksDb.openReadOnly(checkpoint, FAMILIES)) {
      readableLayout(source, checkpoint);
      db.loadRowsFrom(source, OmTable.META.family(), INSTALLING, longBytes(logIndex), batch -> {
        batch.put(OmTable.META.family(), LAYOUT, utf8(Integer.toString(LAYOUT_VERSION)));
        batch.put(OmTable.META.family(), LAST_LOG_INDEX, longBytes(logIndex));
      });
    }
    lastTxId = metaLong(LAST_TX);
    lastLogIndex = logIndex;
  }

  /**
   * Closes as a crash leaves the files: RocksDB loses what was not flushed, so the next open replays it from the
   * journal. For simulations of a crash in one process (issue 44).
   */
  public void closeAsCrashed() throws IOException {
    journal.close();
    db.closeLosingUnflushed();
  }

  /** Flushes RocksDB (so the next open replays nothing) and closes. */
  @Override
  public void close() throws IOException {
    try (ManagedRocksDb closing = db; OmJournal closingJournal = journal) {
      db.flush();
    }
  }
}
