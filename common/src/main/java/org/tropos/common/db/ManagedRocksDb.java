package org.tropos.common.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.MutableDBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.util.Preconditions;

/**
 * A RocksDB database with named column families. All RocksDB native objects in Tropos are created through this
 * class so none is forgotten: every open database is tracked with the stack that opened it, and tests fail
 * when one is still open at the end ({@link #openDatabases()}). Writes are synced to RocksDB's WAL, except
 * {@link #writeBatchUnlogged}'s, which the caller has journaled itself and makes durable with {@link #flush()}.
 * Flushes are atomic across column families, so what survives a crash is always a prefix of the batches.
 *
 * <p>Thread-safe: RocksDB itself is; {@link #close()} must not race with other calls (the owner's lifecycle
 * ensures that).
 */
public final class ManagedRocksDb implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private static final Map<ManagedRocksDb, Throwable> OPEN = new ConcurrentHashMap<>();
  /** Rows per batch when a checkpoint's rows are loaded: bounds the memory a batch holds. */
  private static final int COPY_BATCH_ROWS = 4096;
  /**
   * Table files a database keeps open (RocksDB's default keeps every one open): a datanode's database once held
   * 5,000 small files, and the process ran out of file descriptors. Past this RocksDB closes the least used.
   */
  private static final int MAX_OPEN_FILES = 1000;
  /**
   * Threads opening table files while the database opens (RocksDB's default is 16). The databases here are small
   * and few files are preloaded with a bounded {@link #MAX_OPEN_FILES}, but the threads were started per column
   * family on every open: with the OM's twenty families they cost a quarter of an open.
   */
  private static final int FILE_OPENING_THREADS = 1;

  private final Path dir;
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions cfOptions;
  private final WriteOptions syncWrites;
  private final WriteOptions unloggedWrites;
  private final RocksDB db;
  private final List<ColumnFamilyHandle> handles;
  private final Map<String, ColumnFamilyHandle> families = new HashMap<>();
  private boolean closed;

  private ManagedRocksDb(Path dir, List<String> columnFamilies, boolean readOnly) throws RocksDBException {
    this.dir = dir;
    this.dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
        .setAtomicFlush(true).setMaxOpenFiles(MAX_OPEN_FILES).setMaxFileOpeningThreads(FILE_OPENING_THREADS);
    this.cfOptions = new ColumnFamilyOptions();
    this.syncWrites = new WriteOptions().setSync(true);
    this.unloggedWrites = new WriteOptions().setDisableWAL(true);
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions));
    for (String name : columnFamilies) {
      descriptors.add(new ColumnFamilyDescriptor(name.getBytes(java.nio.charset.StandardCharsets.UTF_8), cfOptions));
    }
    this.handles = new ArrayList<>();
    try {
      this.db = readOnly ? RocksDB.openReadOnly(dbOptions, dir.toString(), descriptors, handles)
          : RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      unloggedWrites.close();
      syncWrites.close();
      cfOptions.close();
      dbOptions.close();
      throw e;
    }
    for (int i = 0; i < columnFamilies.size(); i++) {
      families.put(columnFamilies.get(i), handles.get(i + 1));
    }
  }

  /** Opens (creating if needed) the database in {@code dir} with these column families besides the default. */
  public static ManagedRocksDb open(Path dir, List<String> columnFamilies) throws IOException {
    Files.createDirectories(dir);
    return open(dir, columnFamilies, false);
  }

  /**
   * Opens the database in {@code dir} (a checkpoint, say) for reading only, with those of {@code columnFamilies}
   * it has: a family it lacks (it was written by an older layout) reads as empty.
   */
  public static ManagedRocksDb openReadOnly(Path dir, List<String> columnFamilies) throws IOException {
    List<String> present = new ArrayList<>();
    try (org.rocksdb.Options options = new org.rocksdb.Options()) {
      for (byte[] name : RocksDB.listColumnFamilies(options, dir.toString())) {
        String family = new String(name, java.nio.charset.StandardCharsets.UTF_8);
        if (columnFamilies.contains(family)) {
          present.add(family);
        }
      }
    } catch (RocksDBException e) {
      throw new IOException("Cannot read the column families of RocksDB in " + dir + ": " + e.getMessage(), e);
    }
    return open(dir, present, true);
  }

  private static ManagedRocksDb open(Path dir, List<String> columnFamilies, boolean readOnly) throws IOException {
    try {
      ManagedRocksDb db = new ManagedRocksDb(dir, columnFamilies, readOnly);
      OPEN.put(db, new Throwable("RocksDB " + dir + " opened here"));
      return db;
    } catch (RocksDBException e) {
      throw new IOException("Cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Whether this database has column family {@code name}. */
  public boolean hasFamily(String name) {
    return families.containsKey(name);
  }

  /**
   * Writes a consistent copy of the database to {@code target} (which must not exist): a RocksDB checkpoint, its
   * table files hard links where the file system allows. Memtables are flushed first, so writes made without the
   * WAL are in it.
   */
  public void checkpoint(Path target) throws IOException {
    flush();
    try (org.rocksdb.Checkpoint checkpoint = org.rocksdb.Checkpoint.create(db)) {
      checkpoint.createCheckpoint(target.toString());
    } catch (RocksDBException e) {
      throw failure("checkpoint to " + target, e);
    }
  }

  /** Deletes every row of a column family, without the WAL (durable after the next {@link #flush()}). */
  public void clearUnlogged(String family) throws IOException {
    byte[] first;
    byte[] last;
    try (RocksIterator it = db.newIterator(family(family))) {
      it.seekToFirst();
      if (!it.isValid()) {
        return;
      }
      first = it.key();
      it.seekToLast();
      last = it.key();
    }
    writeBatchUnlogged(batch -> {
      batch.deleteRange(family, first, last);
      batch.delete(family, last);
    });
  }

  /**
   * Replaces this database's rows with those of {@code source} (a replica's checkpoint, opened read-only), for a
   * replica that installs a snapshot: every family but {@code metaFamily} is cleared and refilled; the rows of
   * {@code metaFamily} are overwritten, last. The row {@code marker} of {@code metaFamily} is set to
   * {@code markerValue} first and deleted in the final batch, together with what {@code last} writes, so a crash
   * part-way leaves it set and the caller knows to load the checkpoint again. Written without the WAL, flushed at
   * the end; only while nothing else writes.
   */
  public void loadRowsFrom(ManagedRocksDb source, String metaFamily, byte[] marker, byte[] markerValue,
      BatchWriter last) throws IOException {
    put(metaFamily, marker, markerValue);
    for (String family : families.keySet()) {
      if (!family.equals(metaFamily)) {
        clearUnlogged(family);
        if (source.hasFamily(family)) {
          copyRows(source, family, null);
        }
      }
    }
    copyRows(source, metaFamily, marker);
    writeBatchUnlogged(batch -> {
      last.fill(batch);
      batch.delete(metaFamily, marker);
    });
    flush();
  }

  /** Copies every row of {@code family} from {@code source} but {@code skipped}, in batches of bounded size. */
  private void copyRows(ManagedRocksDb source, String family, byte[] skipped) throws IOException {
    List<byte[][]> rows = new ArrayList<>(COPY_BATCH_ROWS);
    try (RocksIterator it = source.db.newIterator(source.family(family))) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] key = it.key();
        if (skipped == null || !java.util.Arrays.equals(key, skipped)) {
          rows.add(new byte[][] {key, it.value()});
        }
        if (rows.size() == COPY_BATCH_ROWS) {
          putUnlogged(family, rows);
        }
      }
    }
    putUnlogged(family, rows);
  }

  private void putUnlogged(String family, List<byte[][]> rows) throws IOException {
    writeBatchUnlogged(batch -> {
      for (byte[][] row : rows) {
        batch.put(family, row[0], row[1]);
      }
    });
    rows.clear();
  }

  /** Databases opened and not closed, with where each was opened: tests assert this is empty. */
  public static List<Throwable> openDatabases() {
    return List.copyOf(OPEN.values());
  }

  /**
   * RocksDB's estimate of the rows in {@code family} (property {@code rocksdb.estimate-num-keys}): cheap, exact
   * only after compaction, for metrics and the console.
   */
  public long estimatedRows(String family) {
    try {
      return db.getLongProperty(family(family), "rocksdb.estimate-num-keys");
    } catch (RocksDBException e) {
      return -1;
    }
  }

  public byte[] get(String family, byte[] key) throws IOException {
    try {
      return db.get(family(family), key);
    } catch (RocksDBException e) {
      throw failure("read", e);
    }
  }

  public void put(String family, byte[] key, byte[] value) throws IOException {
    try {
      FaultPoints.hit(FaultPoints.ROCKSDB_WRITE);
      db.put(family(family), syncWrites, key, value);
    } catch (RocksDBException e) {
      throw failure("write", e);
    }
  }

  public void delete(String family, byte[] key) throws IOException {
    try {
      FaultPoints.hit(FaultPoints.ROCKSDB_WRITE);
      db.delete(family(family), syncWrites, key);
    } catch (RocksDBException e) {
      throw failure("delete", e);
    }
  }

  /** Applies {@code fill}'s puts and deletes atomically, with one WAL sync. */
  public void writeBatch(BatchWriter fill) throws IOException {
    write(syncWrites, fill);
  }

  /**
   * Applies {@code fill}'s puts and deletes atomically without RocksDB's WAL: they are durable only after the
   * next {@link #flush()} (or a clean close), so the caller must have journaled them.
   */
  public void writeBatchUnlogged(BatchWriter fill) throws IOException {
    write(unloggedWrites, fill);
  }

  private void write(WriteOptions options, BatchWriter fill) throws IOException {
    try (WriteBatch batch = new WriteBatch()) {
      fill.fill(new Batch(batch));
      FaultPoints.hit(FaultPoints.ROCKSDB_WRITE);
      db.write(options, batch);
    } catch (RocksDBException e) {
      throw failure("write batch", e);
    }
  }

  /** Writes every column family's memtable to disk, atomically, and waits until it is durable. */
  public void flush() throws IOException {
    try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
      db.flush(options, handles);
    } catch (RocksDBException e) {
      throw failure("flush", e);
    }
  }

  /**
   * Merges the table files holding {@code family}'s keys from {@code begin} to {@code end} (null: unbounded), those
   * of the last level included (which RocksDB otherwise leaves as they are); blocks until done.
   */
  public void compactRange(String family, byte[] begin, byte[] end) throws IOException {
    compact(family(family), begin, end);
  }

  /** Merges all of every column family's table files; blocks until done. */
  public void compactAll() throws IOException {
    for (ColumnFamilyHandle handle : handles) {
      compact(handle, null, null);
    }
  }

  private void compact(ColumnFamilyHandle family, byte[] begin, byte[] end) throws IOException {
    try (CompactRangeOptions options = new CompactRangeOptions()
        .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
      db.compactRange(family, begin, end, options);
    } catch (RocksDBException e) {
      throw failure("compaction", e);
    }
  }

  /** The number of table files the database is made of, in every column family. */
  public int tableFiles() {
    return db.getLiveFilesMetaData().size();
  }

  /** A consistent view of the database as of now, until closed (a RocksDB snapshot). */
  public ReadView snapshot() {
    Preconditions.assertTrue(!closed, "{} is closed", dir);
    return new ReadView(db, db.getSnapshot(), this::family, this::failure);
  }

  /** A view that always reads the latest committed state. */
  public ReadView latest() {
    return new ReadView(db, null, this::family, this::failure);
  }

  /** Visits every row of a column family in key order. */
  public void forEach(String family, BiConsumer<byte[], byte[]> visitor) {
    try (RocksIterator it = db.newIterator(family(family))) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        visitor.accept(it.key(), it.value());
      }
    }
  }

  /**
   * Visits rows of a column family in key order, from the first key at or after {@code from}, while
   * {@code visitor} returns true.
   */
  public void scan(String family, byte[] from, BiPredicate<byte[], byte[]> visitor) {
    try (RocksIterator it = db.newIterator(family(family))) {
      for (it.seek(from); it.isValid(); it.next()) {
        if (!visitor.test(it.key(), it.value())) {
          return;
        }
      }
    }
  }

  private ColumnFamilyHandle family(String name) {
    ColumnFamilyHandle handle = families.get(name);
    Preconditions.assertTrue(handle != null, "{}: no column family {}", dir, name);
    Preconditions.assertTrue(!closed, "{} is closed", dir);
    return handle;
  }

  private IOException failure(String what, RocksDBException e) {
    return new IOException("RocksDB " + what + " failed in " + dir + ": " + e.getMessage(), e);
  }

  /**
   * Closes as a crashed process leaves the database: writes made without the WAL and not yet flushed are lost
   * (RocksDB otherwise flushes them on close). For simulations of a crash in one process (issue 44).
   */
  public synchronized void closeLosingUnflushed() throws IOException {
    if (!closed) {
      try {
        db.setDBOptions(MutableDBOptions.builder().setAvoidFlushDuringShutdown(true).build());
      } catch (RocksDBException e) {
        throw failure("setting options", e);
      }
    }
    close();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    handles.forEach(ColumnFamilyHandle::close);
    db.close();
    unloggedWrites.close();
    syncWrites.close();
    cfOptions.close();
    dbOptions.close();
    OPEN.remove(this);
  }

  /** Fills a write batch. */
  @FunctionalInterface
  public interface BatchWriter {
    void fill(Batch batch) throws RocksDBException;
  }

  /** The puts and deletes of one atomic batch. */
  public final class Batch {
    private final WriteBatch batch;

    private Batch(WriteBatch batch) {
      this.batch = batch;
    }

    public void put(String family, byte[] key, byte[] value) throws RocksDBException {
      batch.put(family(family), key, value);
    }

    public void delete(String family, byte[] key) throws RocksDBException {
      batch.delete(family(family), key);
    }

    /** Deletes the keys from {@code from} (inclusive) to {@code to} (exclusive). */
    public void deleteRange(String family, byte[] from, byte[] to) throws RocksDBException {
      batch.deleteRange(family(family), from, to);
    }
  }
}
