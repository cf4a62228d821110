package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.io.AtomicFiles;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.proto.datanode.ContainerListing;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerState;

/**
 * The committed blocks of container replicas: their records (length, checksums, bcsid) in the volume's database,
 * committed after the block file is synced, deleted with their files, and read to plan what a reader is sent.
 *
 * <p>Thread-safe: a container's block lock keeps commits, deletions and the container's close apart.
 */
final class BlockRecords {
  private static final Logger LOG = LoggerFactory.getLogger(BlockRecords.class);

  private final String nodeName;

  BlockRecords(String nodeName) {
    this.nodeName = nodeName;
  }

  /** Commits {@code block} to {@code container}, an OPEN one; its bytes must be on disk already. */
  BlockData put(Container container, BlockData block) throws DatanodeException {
    Path file = container.blockFile(block.getBlockId().getLocalId());
    long pieces = Checksums.pieces(block.getLength(), block.getChecksums().getBytesPerChecksum());
    if (Checksums.count(block.getChecksums()) != pieces) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + ContainerStore.name(block.getBlockId())
          + " of " + block.getLength() + " bytes needs " + pieces + " checksums, got "
          + Checksums.count(block.getChecksums()));
    }
    try {
      synchronized (container.blockLock()) {
        if (container.db().wasDeleted(block.getBlockId())) {
          // Chunks written after the deletion (by a replica lagging behind its pipeline) go too.
          Files.deleteIfExists(file);
          throw new DatanodeException(DatanodeResult.NO_SUCH_BLOCK, "block " + ContainerStore.name(block.getBlockId())
              + " was deleted on " + nodeName + "; it is not committed again");
        }
        commit(container, file, block);
      }
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "commit block " + ContainerStore.name(block.getBlockId()), e);
    }
    return block;
  }

  private static void commit(Container container, Path file, BlockData block) throws IOException, DatanodeException {
    long written = ChunkFiles.writtenBytes(file);
    if (written < block.getLength()) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "block " + ContainerStore.name(block.getBlockId())
          + " has " + written + " bytes written, fewer than the " + block.getLength() + " being committed");
    }
    BlockData before = container.db().get(block.getBlockId());
    container.db().put(block);
    container.committed(block.getBcsid());
    container.counted(before == null ? 1 : 0, block.getLength() - (before == null ? 0 : before.getLength()));
  }

  /**
   * Deletes blocks of {@code container}: their records first (synced), then their files (see the store); then
   * records {@code txId} as the replica's highest deletion carried out.
   */
  void delete(Container container, long containerId, List<Long> localIds, long txId) throws DatanodeException {
    try {
      synchronized (container.blockLock()) {
        for (long localId : localIds) {
          BlockData gone = container.db().get(BlockId.newBuilder().setContainerId(containerId).setLocalId(localId)
              .build());
          if (gone != null) {
            container.counted(-1, -gone.getLength());
          }
        }
        container.db().delete(containerId, localIds, container.isOpen());
      }
      for (long localId : localIds) {
        Files.deleteIfExists(container.blockFile(localId));
      }
      AtomicFiles.syncDirectory(container.chunksDir());
      container.recordDeletion(txId);
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "delete blocks of container " + containerId, e);
    }
  }

  /** Whether the block was deleted while its container was OPEN; false when that cannot be told. */
  boolean wasDeleted(Container container, BlockId block) {
    try {
      return container.db().wasDeleted(block);
    } catch (IOException e) {
      LOG.warn("{}: cannot tell whether block {} was deleted: {}", nodeName, ContainerStore.name(block),
          e.toString());
      return false;
    }
  }

  BlockData get(Container container, BlockId id) throws DatanodeException {
    try {
      BlockData block = container.db().get(id);
      if (block == null) {
        throw new DatanodeException(DatanodeResult.NO_SUCH_BLOCK, "no block " + ContainerStore.name(id) + " on "
            + nodeName);
      }
      return block;
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "read block metadata " + ContainerStore.name(id), e);
    }
  }

  /** A copy's needs: state, bcsid and every block's record, of a replica that takes no more writes. */
  ContainerListing listing(Container container) throws DatanodeException {
    ContainerDescriptor d = container.descriptor();
    if (container.isOpen() || d.getState() == ContainerState.CONTAINER_CLOSING) {
      throw new DatanodeException(DatanodeResult.CONTAINER_NOT_OPEN, "container " + d.getContainerId() + " on "
          + nodeName + " is " + d.getState() + ": only a closed replica is copied");
    }
    try {
      ContainerListing.Builder listing = ContainerListing.newBuilder();
      if (d.hasEc()) {
        listing.setEc(d.getEc()).setReplicaIndex(d.getReplicaIndex());
      }
      return listing.setState(d.getState()).setBcsid(container.bcsid())
          .addAllBlocks(container.db().blocks(d.getContainerId())).build();
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "list the blocks of container " + d.getContainerId(), e);
    }
  }

  /** The bytes and checksums to send for {@code length} bytes at {@code offset}, widened to whole pieces. */
  ReadPlan planRead(Container container, BlockId id, long offset, long length) throws DatanodeException {
    BlockData block = get(container, id);
    if (offset < 0 || length < 0 || offset + length > block.getLength()) {
      throw new DatanodeException(DatanodeResult.RANGE_OUT_OF_BOUNDS, "range " + offset + "+" + length
          + " is outside block " + ContainerStore.name(id) + " of " + block.getLength() + " bytes");
    }
    int bpc = block.getChecksums().getBytesPerChecksum();
    long start = offset - offset % bpc;
    long end = Math.min(block.getLength(), (offset + length + bpc - 1) / bpc * bpc);
    ChecksumData sums = Checksums.slice(block.getChecksums(), (int) (start / bpc), Checksums.pieces(end, bpc));
    return new ReadPlan(container.blockFile(id.getLocalId()), start, end - start, sums, block.getLength());
  }
}
