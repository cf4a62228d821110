package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.io.AtomicFiles;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;

/**
 * The bytes of block files: chunks checked against the client's checksums and written (past the page cache where
 * {@link DirectIo} says), read back, forced to disk. Writes of one block file take turns: a tail written past the
 * page cache must see the file as it is. A block file's name is made durable with its bytes: its first chunk marks
 * the directory, which the block's next sync then syncs too (once for every file created in it since). Chunks are
 * refused once a volume has no more than {@link MetadataReserve#BYTES} free: that room is its block database's.
 *
 * <p>Thread-safe.
 */
final class ChunkFiles {
  private static final Logger LOG = LoggerFactory.getLogger(ChunkFiles.class);

  private final String nodeName;
  private final DirectIo directIo;
  private final BlockWriteLocks writeLocks = new BlockWriteLocks();
  private final VolumeMeters meters;
  /** Chunk directories in which a block file may have been created since they were last synced. */
  private final Set<Path> unsyncedNames = ConcurrentHashMap.newKeySet();

  ChunkFiles(String nodeName, DirectIo directIo, VolumeMeters meters) {
    this.nodeName = nodeName;
    this.directIo = directIo;
    this.meters = meters;
  }

  /** Writes {@code data} at {@code offset} of the block in {@code container} after checking its checksums. */
  void write(Container container, BlockId block, long offset, ByteBuffer data, ChecksumData checksums)
      throws DatanodeException {
    if (offset % checksums.getBytesPerChecksum() != 0) {
      throw new DatanodeException(DatanodeResult.INVALID_REQUEST, "chunk offset " + offset
          + " is not a multiple of bytes per checksum " + checksums.getBytesPerChecksum());
    }
    int direct = directIo.directBytes(offset, data.remaining());
    // A chunk past the page cache is staged in aligned memory anyway, so its checksums are read there: on the
    // Raft entry's read-only heap bytes CRC32C copied each piece through a small array (1 % of a large PUT).
    ByteBuffer source = direct > 0 ? directIo.stage(data) : data;
    int bad = Checksums.firstMismatch(source, checksums);
    if (bad >= 0) {
      throw new DatanodeException(DatanodeResult.CHECKSUM_MISMATCH, "chunk of block " + ContainerStore.name(block)
          + " at " + offset + " does not match its checksum at byte "
          + (offset + (long) bad * checksums.getBytesPerChecksum()));
    }
    if (!container.db().hasRoomForChunks()) {
      throw new DatanodeException(DatanodeResult.DISK_FULL, nodeName + " cannot write block "
          + ContainerStore.name(block) + ": its volume's last " + MetadataReserve.BYTES + " bytes are its metadata's");
    }
    Path path = container.blockFile(block.getLocalId());
    if (offset == 0) {
      unsyncedNames.add(container.chunksDir());
    }
    meters.written(path, source.remaining());
    synchronized (writeLocks.of(block)) {
      write(block, path, offset, source, direct);
    }
  }

  private void write(BlockId block, Path path, long offset, ByteBuffer source, int direct) throws DatanodeException {
    int written = 0;
    if (direct > 0) {
      try {
        written = directIo.write(path, offset, source, direct);
      } catch (IOException e) {
        directIo.failed(path, e);
      }
    }
    if (written == source.remaining()) {
      return;
    }
    try (FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      ByteBuffer view = source.slice(source.position() + written, source.remaining() - written);
      long at = offset + written;
      while (view.hasRemaining()) {
        at += file.write(view, at);
      }
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "write block " + ContainerStore.name(block), e);
    }
  }

  /** Reads back written (not necessarily committed) bytes of a block. */
  ByteBuffer read(Container container, BlockId block, long offset, int length) throws DatanodeException {
    ByteBuffer data = ByteBuffer.allocate(length);
    try (FileChannel file = FileChannel.open(container.blockFile(block.getLocalId()), StandardOpenOption.READ)) {
      while (data.hasRemaining()) {
        if (file.read(data, offset + data.position()) < 0) {
          throw new DatanodeException(DatanodeResult.RANGE_OUT_OF_BOUNDS, "chunk " + offset + "+" + length
              + " of block " + ContainerStore.name(block) + " was never written");
        }
      }
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "read back a chunk of block " + ContainerStore.name(block), e);
    }
    return data.flip();
  }

  /** Forces a block file's written bytes to disk; a file deleted since has nothing left to force. */
  void sync(Container container, BlockId block) throws DatanodeException {
    try (FileChannel channel = FileChannel.open(container.blockFile(block.getLocalId()), StandardOpenOption.WRITE)) {
      FaultPoints.hit(FaultPoints.CHUNK_FSYNC);
      channel.force(true);
      // Unmarked before it is synced: a file created meanwhile marks it again.
      if (unsyncedNames.remove(container.chunksDir())) {
        AtomicFiles.syncDirectory(container.chunksDir());
      }
    } catch (NoSuchFileException e) {
      LOG.debug("{}: block {} was deleted before its bytes were forced", nodeName, ContainerStore.name(block));
    } catch (IOException e) {
      throw ContainerStore.ioError(nodeName, "sync block " + ContainerStore.name(block), e);
    }
  }

  /** Drops a deleted container's directory from those waiting for a sync: nothing there is to be kept. */
  void forget(Container container) {
    unsyncedNames.remove(container.chunksDir());
  }

  /**
   * The bytes in a block's file, read from its attributes (opening and closing the file was a quarter of a
   * commit's CPU in a profile of 100 KiB PUTs); an empty block has no chunk that created its file, so it is
   * created here.
   */
  static long writtenBytes(Path file) throws IOException {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        throw new IOException(file + " is not a regular file");
      }
      return attributes.size();
    } catch (NoSuchFileException e) {
      Files.newByteChannel(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
      return 0;
    }
  }
}
