package org.tropos.datanode.container;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.db.ReadView;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.BlockId;

/**
 * A data volume's block metadata: {@code <volume>/tropos/<clusterId>/container.db}, one RocksDB per volume
 * (layout 1). Column family {@code blocks}: key = containerId (8 bytes) + localId (8 bytes), big-endian, so a
 * container's blocks are contiguous; value = {@link BlockData}. Column family {@code deletedBlocks}: the same keys,
 * empty values: blocks deleted while their container was OPEN (see {@link ContainerStore#deleteBlocks}). A volume
 * of an older version gains the second family, empty. Deletions and copied containers are written synced; a
 * committed block's record is not even logged (see {@link #put}). Beside it, {@code container.db.reserve} holds
 * space back for it on a full volume ({@link MetadataReserve}).
 */
final class VolumeDb implements AutoCloseable {
  private static final String BLOCKS = "blocks";
  private static final String DELETED_BLOCKS = "deletedBlocks";
  private static final byte[] EMPTY = new byte[0];
  /** Containers leaving OPEN per compacted run (see {@link ClosedContainerRuns}). */
  private static final int CLOSES_PER_RUN = 16;
  /** A database opened with more table files than this (as an older version left it) is compacted whole. */
  private static final int MOST_FILES_AT_OPEN = 256;

  private final ManagedRocksDb db;
  private final MetadataReserve reserve;
  private final ClosedContainerRuns closedRuns = new ClosedContainerRuns(CLOSES_PER_RUN);

  private VolumeDb(ManagedRocksDb db, MetadataReserve reserve) {
    this.db = db;
    this.reserve = reserve;
  }

  static VolumeDb open(Path dir) throws IOException {
    ManagedRocksDb db = ManagedRocksDb.open(dir, List.of(BLOCKS, DELETED_BLOCKS));
    try {
      if (db.tableFiles() > MOST_FILES_AT_OPEN) {
        db.compactAll();
      }
    } catch (IOException | RuntimeException e) {
      db.close();
      throw e;
    }
    MetadataReserve reserve = new MetadataReserve(dir.resolveSibling(dir.getFileName() + ".reserve"));
    reserve.beforeWrite();
    return new VolumeDb(db, reserve);
  }

  /**
   * Records a committed block without RocksDB's WAL: durable only after the next {@link #flush} (or a clean
   * close). Its Raft log entry is the record until then: a datanode that crashes applies again every entry since
   * its group's last snapshot, and a snapshot, or a container leaving OPEN, flushes first.
   */
  void put(BlockData block) throws IOException {
    // RocksDB flushes a full memtable in the background: the reserve must be back before a put can start one.
    reserve.beforeWrite();
    db.writeBatchUnlogged(batch -> batch.put(BLOCKS, key(block.getBlockId()), block.toByteArray()));
  }

  /** Whether chunks may still be written to the volume: it has more free than the database's room. */
  boolean hasRoomForChunks() {
    return reserve.hasRoomForChunks();
  }

  /** Makes every record so far durable (memtables written to disk). */
  void flush() throws IOException {
    reserve.beforeWrite();
    db.flush();
  }

  /**
   * Makes every record so far durable because {@code containerId} leaves OPEN. Such a flush writes small table
   * files holding mostly that container's records, and as container ids grow they never overlap: RocksDB moves
   * them down whole instead of merging them, and a datanode kept one file per closed container (5,000 after
   * 5,000 closes, each an open file descriptor). So the key ranges of such containers are compacted in runs
   * ({@link ClosedContainerRuns}).
   */
  void flushLeavingOpen(long containerId) throws IOException {
    reserve.beforeWrite();
    db.flush();
    for (ClosedContainerRuns.Range range : closedRuns.leftOpen(containerId)) {
      for (String family : List.of(BLOCKS, DELETED_BLOCKS)) {
        db.compactRange(family, key(range.from(), 0), key(range.to() + 1, 0));
      }
    }
  }

  /** The number of table files the volume's database is made of. */
  int tableFiles() {
    return db.tableFiles();
  }

  /** The block's committed metadata, or null. */
  BlockData get(BlockId id) throws IOException {
    byte[] value = db.get(BLOCKS, key(id));
    if (value == null) {
      return null;
    }
    try {
      return BlockData.parseFrom(value);
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("unreadable block metadata for " + id.getContainerId() + "/" + id.getLocalId(), e);
    }
  }

  /** Removes blocks' metadata in one synced batch; with {@code remember}, records them as deleted in it too. */
  void delete(long containerId, List<Long> localIds, boolean remember) throws IOException {
    reserve.beforeWrite();
    db.writeBatch(batch -> {
      for (long localId : localIds) {
        batch.delete(BLOCKS, key(containerId, localId));
        if (remember) {
          batch.put(DELETED_BLOCKS, key(containerId, localId), EMPTY);
        }
      }
    });
  }

  /** Whether the block was deleted while its container was OPEN. */
  boolean wasDeleted(BlockId id) throws IOException {
    return db.get(DELETED_BLOCKS, key(id)) != null;
  }

  /** Every committed block of a container, in local id order. */
  List<BlockData> blocks(long containerId) throws IOException {
    List<BlockData> blocks = new ArrayList<>();
    IOException[] failure = {null};
    byte[] prefix = ByteBuffer.allocate(8).putLong(containerId).array();
    try (ReadView view = db.snapshot()) {
      view.scan(BLOCKS, prefix, prefix, (key, value) -> {
        try {
          blocks.add(BlockData.parseFrom(value));
          return true;
        } catch (InvalidProtocolBufferException e) {
          failure[0] = new IOException("unreadable block metadata in container " + containerId, e);
          return false;
        }
      });
    }
    if (failure[0] != null) {
      throw failure[0];
    }
    return blocks;
  }

  /** Records the blocks of a copied container in one synced batch. */
  void putAll(List<BlockData> blocks) throws IOException {
    reserve.beforeWrite();
    db.writeBatch(batch -> {
      for (BlockData block : blocks) {
        batch.put(BLOCKS, key(block.getBlockId()), block.toByteArray());
      }
    });
  }

  /** Forgets everything of a container: its blocks and the record of its deleted ones. */
  void deleteContainer(long containerId) throws IOException {
    reserve.beforeWrite();
    db.writeBatch(batch -> {
      batch.deleteRange(BLOCKS, key(containerId, 0), key(containerId + 1, 0));
      batch.deleteRange(DELETED_BLOCKS, key(containerId, 0), key(containerId + 1, 0));
    });
  }

  /** Forgets the deleted blocks of a container (it takes no more writes). */
  void forgetDeleted(long containerId) throws IOException {
    reserve.beforeWrite();
    db.writeBatch(batch -> batch.deleteRange(DELETED_BLOCKS, key(containerId, 0), key(containerId + 1, 0)));
  }

  private static byte[] key(BlockId id) {
    return key(id.getContainerId(), id.getLocalId());
  }

  private static byte[] key(long containerId, long localId) {
    return ByteBuffer.allocate(16).putLong(containerId).putLong(localId).array();
  }

  /** Closes as a power cut leaves it: block rows not flushed yet (written without the WAL) are lost. */
  void closeAsCrashed() throws IOException {
    db.closeLosingUnflushed();
  }

  @Override
  public void close() {
    db.close();
  }
}
