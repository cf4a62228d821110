package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.tropos.common.checksum.Checksums;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ChecksumData;

/**
 * Checks one container replica. The metadata check reads its descriptor back and finds every committed block's
 * file at least as long as the block; the data check also reads every block and verifies every checksum. A block
 * deleted while it is checked (SCM deleted its key) is not a fault: a missing file counts only if the block is
 * still recorded.
 */
final class ContainerScanner {
  /** Bytes read per step; a multiple of every bytes-per-checksum in use (16 KB to 1 MB). */
  private static final int READ_BYTES = 1 << 20;

  private final ByteBuffer buffer = ByteBuffer.allocateDirect(READ_BYTES);

  /** What is wrong with the replica's metadata, if anything. */
  Optional<String> checkMetadata(Container container) throws IOException {
    ContainerDescriptor d = container.descriptor();
    Path descriptor = Container.descriptorFile(container.dir(), d.getContainerId());
    try {
      if (Container.readDescriptor(descriptor).getContainerId() != d.getContainerId()) {
        return Optional.of("its descriptor " + descriptor + " names another container");
      }
    } catch (NoSuchFileException e) {
      return Optional.of("its descriptor " + descriptor + " is missing");
    } catch (IOException e) {
      return Optional.of("its descriptor " + descriptor + " cannot be read: " + e.getMessage());
    }
    for (BlockData block : container.db().blocks(d.getContainerId())) {
      Path file = container.blockFile(block.getBlockId().getLocalId());
      long size = Files.exists(file) ? Files.size(file) : -1;
      if (size < block.getLength() && stillRecorded(container, block)) {
        return Optional.of(size < 0 ? "the file of block " + block.getBlockId().getLocalId() + " is missing"
            : "the file of block " + block.getBlockId().getLocalId() + " has " + size + " bytes, fewer than its "
                + block.getLength());
      }
    }
    return Optional.empty();
  }

  /** What is wrong with the replica's data, if anything: every block read and verified, at the throttle's rate. */
  Optional<String> checkData(Container container, ByteRateThrottle throttle) throws IOException,
      InterruptedException {
    Optional<String> metadata = checkMetadata(container);
    if (metadata.isPresent()) {
      return metadata;
    }
    for (BlockData block : container.db().blocks(container.descriptor().getContainerId())) {
      Optional<String> fault = checkBlock(container, block, throttle);
      if (fault.isPresent() && stillRecorded(container, block)) {
        return fault;
      }
    }
    return Optional.empty();
  }

  private Optional<String> checkBlock(Container container, BlockData block, ByteRateThrottle throttle)
      throws IOException, InterruptedException {
    ChecksumData sums = block.getChecksums();
    int bpc = sums.getBytesPerChecksum();
    try (FileChannel file = FileChannel.open(container.blockFile(block.getBlockId().getLocalId()),
        StandardOpenOption.READ)) {
      for (long at = 0; at < block.getLength(); at += READ_BYTES) {
        int length = (int) Math.min(READ_BYTES, block.getLength() - at);
        buffer.clear().limit(length);
        while (buffer.hasRemaining()) {
          if (file.read(buffer, at + buffer.position()) < 0) {
            return Optional.of("block " + block.getBlockId().getLocalId() + " ends before its " + block.getLength()
                + " bytes");
          }
        }
        buffer.flip();
        int first = (int) (at / bpc);
        int bad = Checksums.firstMismatch(buffer, Checksums.slice(sums, first, first + Checksums.pieces(length, bpc)));
        if (bad >= 0) {
          return Optional.of("block " + block.getBlockId().getLocalId() + " does not match its checksum at byte "
              + (at + (long) bad * bpc));
        }
        throttle.consumed(length);
      }
    } catch (NoSuchFileException e) {
      return Optional.of("the file of block " + block.getBlockId().getLocalId() + " is missing");
    }
    return Optional.empty();
  }

  private static boolean stillRecorded(Container container, BlockData block) throws IOException {
    return container.db().get(block.getBlockId()) != null;
  }
}
