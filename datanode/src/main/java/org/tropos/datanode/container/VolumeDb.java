package org.tropos.datanode.container;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.BlockId;

/**
 * A data volume's block metadata: {@code <volume>/tropos/<clusterId>/container.db}, one RocksDB per volume
 * (layout 1), column family {@code blocks}: key = containerId (8 bytes) + localId (8 bytes), big-endian, so a
 * container's blocks are contiguous; value = {@link BlockData}. Writes are synced.
 */
final class VolumeDb implements AutoCloseable {
  private static final String BLOCKS = "blocks";

  private final ManagedRocksDb db;

  private VolumeDb(ManagedRocksDb db) {
    this.db = db;
  }

  static VolumeDb open(Path dir) throws IOException {
    return new VolumeDb(ManagedRocksDb.open(dir, List.of(BLOCKS)));
  }

  void put(BlockData block) throws IOException {
    db.put(BLOCKS, key(block.getBlockId()), block.toByteArray());
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

  private static byte[] key(BlockId id) {
    return ByteBuffer.allocate(16).putLong(id.getContainerId()).putLong(id.getLocalId()).array();
  }

  @Override
  public void close() {
    db.close();
  }
}
