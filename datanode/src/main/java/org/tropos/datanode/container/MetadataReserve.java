package org.tropos.datanode.container;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.datanode.volume.StorageDirectory;

/**
 * Space held back on a data volume for its block database. RocksDB refuses every write after one that found no
 * room (a flush, say) until it is reopened, and a block's deletion writes the database before its file goes: on a
 * volume filled to the last byte nothing could be deleted, nothing was freed, until the datanode restarted. So
 * chunks leave the volume's last {@link #BYTES} to the database ({@link ChunkFiles}), and against anything else
 * filling the file system this file of as many bytes is given back before the database writes to a nearly full
 * volume, and made again once the volume has plenty.
 *
 * <p>Thread-safe.
 */
final class MetadataReserve {
  /** Room for the database's log records and the table files a flush writes. */
  static final long BYTES = StorageDirectory.METADATA_ROOM;
  private static final Logger LOG = LoggerFactory.getLogger(MetadataReserve.class);
  private static final int WRITE_BYTES = 1 << 20;

  private final Path file;
  /** Whether the file is there, known so that the check before each write is one statvfs; guarded by this. */
  private boolean held;

  MetadataReserve(Path file) {
    this.file = file;
    this.held = Files.exists(file);
  }

  /**
   * Whether the volume has more than {@link #BYTES} free, as its report to SCM counts room (StorageDirectory): a
   * chunk is refused exactly when the report says the volume is full, so SCM closes the pipeline whose entry a
   * follower refused; refusing from {@code BYTES} plus the chunk left the report saying "room", the pipeline open
   * and the leader resending the entry for ever (FullVolumeIT). A chunk may so take up to its own size of the
   * database's room; the reserve file is kept on top for that. Asked of the volume's own directory, which outlives
   * any container's (a deleted container's directory reports no space at all).
   */
  boolean hasRoomForChunks() {
    return file.getParent().toFile().getUsableSpace() > BYTES;
  }

  /**
   * Before the database writes to disk: gives the reserve back if the volume has less than half of it free
   * (chunks stop at all of it: something else has been filling the file system), or makes it again if the volume
   * has room for it three times over.
   */
  synchronized void beforeWrite() {
    try {
      long free = file.getParent().toFile().getUsableSpace();
      if (held && free < BYTES / 2) {
        Files.deleteIfExists(file);
        held = false;
        LOG.warn("{} has {} bytes free: its metadata reserve is given back to its block database", file.getParent(),
            free);
      } else if (!held && free > 3 * BYTES) {
        make();
        held = true;
      }
    } catch (IOException e) {
      LOG.warn("Metadata reserve {} not checked: {}", file, e.toString());
    }
  }

  /** Writes the reserve's bytes (zeros, so the file system allocates them), synced; on failure leaves none. */
  private void make() throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer zeros = ByteBuffer.allocate(WRITE_BYTES);
      for (long at = 0; at < BYTES; at += WRITE_BYTES) {
        channel.write(zeros.clear(), at);
      }
      channel.force(true);
    } catch (IOException e) {
      Files.deleteIfExists(file);
      throw e;
    }
  }
}
