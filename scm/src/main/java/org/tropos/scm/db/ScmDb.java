package org.tropos.scm.db;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.rocksdb.RocksDBException;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.ratis.CheckpointedState;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.proto.scm.db.DeletedBlocksRecord;
import org.tropos.proto.scm.db.NodeOperationalRecord;
import org.tropos.proto.scm.db.PipelineRecord;
import org.tropos.proto.scm.db.ScmRowChange;
import org.tropos.proto.scm.db.ScmWriteSet;

/**
 * SCM's RocksDB: the one place that knows its schema.
 *
 * <pre>
 * meta   "layoutVersion" -> "1", "clusterId" -> "CID-uuid", "scmId" -> uuid, "nextContainerId" -> decimal,
 *        "nextDeletedBlocksTxId" -> decimal, "lastLogIndex" -> decimal (SCM HA: the last Raft entry applied)
 * nodes         datanode uuid (string) -> DatanodeDetails (protobuf)
 * pipelines     pipeline uuid (string) -> PipelineRecord (protobuf, scm_db.proto)
 * containers    container id (8 bytes, big-endian) -> ContainerRecord (protobuf, scm_db.proto)
 * deletedBlocks transaction id (8 bytes, big-endian) -> DeletedBlocksRecord (protobuf, scm_db.proto)
 * nodeStates    datanode uuid (string) -> NodeOperationalRecord (protobuf, scm_db.proto)
 * </pre>
 *
 * A database written by a newer layout is refused. New tables are new column families; an older database simply
 * gains them, empty (the layout version stays 1). An older SCM cannot open a database with column families it
 * does not know: RocksDB refuses to open without them.
 */
public final class ScmDb implements CheckpointedState, AutoCloseable {
  public static final int LAYOUT_VERSION = 1;
  private static final String META = "meta";
  private static final String NODES = "nodes";
  private static final String PIPELINES = "pipelines";
  private static final String CONTAINERS = "containers";
  private static final String DELETED_BLOCKS = "deletedBlocks";
  private static final String NODE_STATES = "nodeStates";
  private static final String NEXT_DELETED_BLOCKS_TX_ID = "nextDeletedBlocksTxId";
  private static final String LAYOUT_KEY = "layoutVersion";
  private static final int CLEARS_PER_FLUSH = 32;

  private static final String LAST_LOG_INDEX = "lastLogIndex";
  /** Set (to the snapshot's log index) while a snapshot is being installed: the rows are then incomplete. */
  private static final String INSTALLING = "installingSnapshot";
  private static final List<String> FAMILIES = List.of(META, NODES, PIPELINES, CONTAINERS, DELETED_BLOCKS,
      NODE_STATES);

  private final ManagedRocksDb db;
  /** Where changes go: this database (a single SCM), or the SCMs' Raft group (SCM HA), which applies them here. */
  private volatile RowLog log = this::applyLocally;
  private volatile long lastLogIndex;
  private int clearsSinceFlush;

  /**
   * Where SCM's row changes are made durable. A single SCM writes them to its own database; with SCM HA the
   * leader sends them through the SCMs' Raft group, whose state machine applies them on every SCM
   * ({@link #applyReplicated}), and returns once they are applied here.
   */
  @FunctionalInterface
  public interface RowLog {
    void write(ScmWriteSet changes) throws IOException;
  }

  private ScmDb(ManagedRocksDb db) throws IOException {
    this.db = db;
    byte[] applied = db.get(META, utf8(LAST_LOG_INDEX));
    this.lastLogIndex = applied == null ? 0 : Long.parseLong(new String(applied, StandardCharsets.UTF_8));
  }

  /** Sends every later change through {@code rowLog} (SCM HA) instead of writing it here. */
  public void writeThrough(RowLog rowLog) {
    this.log = rowLog;
  }

  /** The rows of one change, built by the methods that write and handed to the {@link RowLog} as one. */
  private static final class WriteSet {
    private final ScmWriteSet.Builder changes = ScmWriteSet.newBuilder();

    WriteSet put(String family, byte[] key, byte[] value) {
      changes.addChanges(ScmRowChange.newBuilder().setFamily(family).setKey(ByteString.copyFrom(key))
          .setValue(ByteString.copyFrom(value)));
      return this;
    }

    WriteSet delete(String family, byte[] key) {
      changes.addChanges(ScmRowChange.newBuilder().setFamily(family).setKey(ByteString.copyFrom(key)));
      return this;
    }
  }

  private static WriteSet set() {
    return new WriteSet();
  }

  private void write(WriteSet set) throws IOException {
    log.write(set.changes.build());
  }

  private void applyLocally(ScmWriteSet changes) throws IOException {
    db.writeBatch(batch -> fill(batch, changes));
  }

  /**
   * Applies a change the SCMs' Raft group committed at {@code logIndex}, with that index, in one synced batch.
   * Changes are whole rows, so replaying the log from its start after a restart ends in the same state; entries
   * at or below the index already applied are skipped all the same.
   */
  public void applyReplicated(ScmWriteSet changes, long logIndex) throws IOException {
    if (logIndex <= lastLogIndex) {
      return;
    }
    db.writeBatch(batch -> {
      fill(batch, changes);
      batch.put(META, utf8(LAST_LOG_INDEX), utf8(Long.toString(logIndex)));
    });
    lastLogIndex = logIndex;
  }

  /** The Raft log index of the last change applied (SCM HA; 0 for a single SCM). */
  @Override
  public long lastLogIndex() {
    return lastLogIndex;
  }

  /** Records that the database holds the state at Raft log index {@code logIndex} (entries that change no row). */
  @Override
  public void recordLogIndex(long logIndex) throws IOException {
    if (logIndex > lastLogIndex) {
      db.writeBatch(batch -> batch.put(META, utf8(LAST_LOG_INDEX), utf8(Long.toString(logIndex))));
      lastLogIndex = logIndex;
    }
  }

  /** Writes a RocksDB checkpoint of this database to {@code target} (SCM HA's snapshot). */
  @Override
  public void checkpoint(Path target) throws IOException {
    db.checkpoint(target);
  }

  @Override
  public boolean installing() throws IOException {
    return meta(INSTALLING) != null;
  }

  /**
   * Replaces every row with those of {@code checkpoint}, the leader's {@link #checkpoint} at Raft log index
   * {@code logIndex} (SCM HA: a follower that fell behind the leader's log). Only while nothing else writes: the
   * state machine is paused, and a follower's managers do not run. A crash part-way leaves {@link #installing}
   * set, and the installation is redone from the same checkpoint on the next start.
   */
  @Override
  public void install(Path checkpoint, long logIndex) throws IOException {
    try (ManagedRocksDb source = ManagedRocksDb.openReadOnly(checkpoint, FAMILIES)) {
      storedLayout(source, checkpoint);
      db.loadRowsFrom(source, META, utf8(INSTALLING), utf8(Long.toString(logIndex)), batch -> {
        batch.put(META, utf8(LAYOUT_KEY), utf8(Integer.toString(LAYOUT_VERSION)));
        batch.put(META, utf8(LAST_LOG_INDEX), utf8(Long.toString(logIndex)));
      });
    }
    lastLogIndex = logIndex;
  }

  private static void fill(ManagedRocksDb.Batch batch, ScmWriteSet changes) throws RocksDBException {
    for (ScmRowChange c : changes.getChangesList()) {
      if (c.hasValue()) {
        batch.put(c.getFamily(), c.getKey().toByteArray(), c.getValue().toByteArray());
      } else {
        batch.delete(c.getFamily(), c.getKey().toByteArray());
      }
    }
  }

  public static ScmDb open(Path dir) throws IOException {
    ManagedRocksDb db = ManagedRocksDb.open(dir, FAMILIES);
    try {
      checkLayout(db, dir);
      return new ScmDb(db);
    } catch (IOException | RuntimeException e) {
      db.close();
      throw e;
    }
  }

  private static void checkLayout(ManagedRocksDb db, Path dir) throws IOException {
    if (storedLayout(db, dir) == 0) {
      db.put(META, utf8(LAYOUT_KEY), utf8(Integer.toString(LAYOUT_VERSION)));
    }
  }

  /** The database's layout version (0: none recorded yet); refused if newer than this version reads. */
  private static int storedLayout(ManagedRocksDb db, Path dir) throws IOException {
    byte[] stored = db.get(META, utf8(LAYOUT_KEY));
    int layout = stored == null ? 0 : Integer.parseInt(new String(stored, StandardCharsets.UTF_8));
    if (layout > LAYOUT_VERSION) {
      throw new IOException("SCM database " + dir + " has layout " + layout + "; this version reads up to "
          + LAYOUT_VERSION);
    }
    return layout;
  }

  /**
   * Deletes every row but the layout version: for a simulation that runs each seed afresh on one database (opening
   * RocksDB costs more than a whole run). Only while nothing else uses the database.
   */
  public void clear() throws IOException {
    for (String family : FAMILIES) {
      db.clearUnlogged(family);
    }
    // Every new iterator sorts out all the range deletions still in the memtable: a flush now and then keeps
    // reading the tables from slowing down clear after clear (and flushing each time would cost more than a run).
    if (++clearsSinceFlush == CLEARS_PER_FLUSH) {
      db.flush();
      clearsSinceFlush = 0;
    }
    db.put(META, utf8(LAYOUT_KEY), utf8(Integer.toString(LAYOUT_VERSION)));
    lastLogIndex = 0;
  }

  /** A meta value, or null. */
  public String meta(String key) throws IOException {
    byte[] value = db.get(META, utf8(key));
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }

  public void putMeta(String key, String value) throws IOException {
    write(set().put(META, utf8(key), utf8(value)));
  }

  public void putNode(DatanodeDetails node, UUID id) throws IOException {
    write(set().put(NODES, utf8(id.toString()), node.toByteArray()));
  }

  public List<DatanodeDetails> nodes() throws IOException {
    return readAll(NODES, DatanodeDetails::parseFrom);
  }

  public void putNodeState(NodeOperationalRecord state) throws IOException {
    write(set().put(NODE_STATES, utf8(Uuids.fromProto(state.getId()).toString()), state.toByteArray()));
  }

  public List<NodeOperationalRecord> nodeStates() throws IOException {
    return readAll(NODE_STATES, NodeOperationalRecord::parseFrom);
  }

  public void putPipeline(PipelineRecord pipeline, UUID id) throws IOException {
    write(set().put(PIPELINES, utf8(id.toString()), pipeline.toByteArray()));
  }

  public void deletePipeline(UUID id) throws IOException {
    write(set().delete(PIPELINES, utf8(id.toString())));
  }

  public List<PipelineRecord> pipelines() throws IOException {
    return readAll(PIPELINES, PipelineRecord::parseFrom);
  }

  public void putContainer(ContainerRecord container) throws IOException {
    write(set().put(CONTAINERS, longKey(container.getContainerId()), container.toByteArray()));
  }

  /** Stores several containers as one change (one synced batch; one Raft entry under SCM HA). */
  public void putContainers(List<ContainerRecord> containers) throws IOException {
    WriteSet set = set();
    for (ContainerRecord c : containers) {
      set.put(CONTAINERS, longKey(c.getContainerId()), c.toByteArray());
    }
    write(set);
  }

  public void deleteContainer(long containerId) throws IOException {
    write(set().delete(CONTAINERS, longKey(containerId)));
  }

  public List<ContainerRecord> containers() throws IOException {
    return readAll(CONTAINERS, ContainerRecord::parseFrom);
  }

  /** The id the next deleted-blocks transaction gets: 1 in a new database. */
  public long nextDeletedBlocksTxId() throws IOException {
    String next = meta(NEXT_DELETED_BLOCKS_TX_ID);
    return next == null ? 1 : Long.parseLong(next);
  }

  /** Adds deleted-blocks transactions and moves the id counter past them, atomically (one synced batch). */
  public void appendDeletedBlocks(List<DeletedBlocksRecord> records, long nextTxId) throws IOException {
    WriteSet set = set();
    for (DeletedBlocksRecord r : records) {
      set.put(DELETED_BLOCKS, longKey(r.getTxId()), r.toByteArray());
    }
    write(set.put(META, utf8(NEXT_DELETED_BLOCKS_TX_ID), utf8(Long.toString(nextTxId))));
  }

  /** Up to {@code limit} deleted-blocks transactions with ids from {@code fromTxId} on, in id order. */
  public List<DeletedBlocksRecord> deletedBlocks(long fromTxId, int limit) throws IOException {
    List<DeletedBlocksRecord> rows = new ArrayList<>();
    List<Long> corrupt = new ArrayList<>();
    db.scan(DELETED_BLOCKS, longKey(fromTxId), (key, value) -> {
      try {
        rows.add(DeletedBlocksRecord.parseFrom(value));
      } catch (InvalidProtocolBufferException e) {
        corrupt.add(ByteBuffer.wrap(key).getLong());
      }
      return rows.size() + corrupt.size() < limit;
    });
    if (!corrupt.isEmpty()) {
      throw new IOException("SCM database has unreadable " + DELETED_BLOCKS + " rows: " + corrupt);
    }
    return rows;
  }

  /** How many deleted-blocks transactions are waiting (a full scan: for start-up and tests). */
  public long deletedBlocksCount() {
    long[] count = {0};
    db.forEach(DELETED_BLOCKS, (key, value) -> count[0]++);
    return count[0];
  }

  public void removeDeletedBlocks(Collection<Long> txIds) throws IOException {
    WriteSet set = set();
    for (long id : txIds) {
      set.delete(DELETED_BLOCKS, longKey(id));
    }
    write(set);
  }

  private static byte[] longKey(long id) {
    return ByteBuffer.allocate(8).putLong(id).array();
  }

  /** Parses a row's protobuf value. */
  @FunctionalInterface
  private interface RowParser<T> {
    T parse(byte[] value) throws InvalidProtocolBufferException;
  }

  private <T> List<T> readAll(String family, RowParser<T> parser) throws IOException {
    List<T> rows = new ArrayList<>();
    List<String> corrupt = new ArrayList<>();
    db.forEach(family, (key, value) -> {
      try {
        rows.add(parser.parse(value));
      } catch (InvalidProtocolBufferException e) {
        corrupt.add(new String(key, StandardCharsets.UTF_8));
      }
    });
    if (!corrupt.isEmpty()) {
      throw new IOException("SCM database has unreadable " + family + " rows: " + corrupt);
    }
    return rows;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    db.close();
  }
}
