package org.tropos.datanode.container;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which block I/O bypasses the page cache ({@code O_DIRECT}): a chunk is written once and read back rarely, so
 * caching it mostly costs a copy into fresh pages (docs/design.md, "Data path"). Ranges of at least
 * {@code threshold} bytes, written from offsets aligned to {@link #ALIGNMENT}; an unaligned tail too when it ends
 * the file, padded with zeros to a whole page (so a block file may be longer than its block by less than a page:
 * readers go by the block's length). Any other tail goes through the page cache. A file system that refuses
 * {@code O_DIRECT} switches it off.
 *
 * <p>Thread-safe; each thread has its own aligned buffer.
 */
public final class DirectIo {
  /** The alignment of offsets, lengths and buffers: a multiple of any disk's logical block size in use. */
  public static final int ALIGNMENT = 4096;
  /** Everything through the page cache. */
  public static final DirectIo OFF = new DirectIo(0);
  private static final byte[] ZEROS = new byte[ALIGNMENT];

  private static final Logger LOG = LoggerFactory.getLogger(DirectIo.class);

  private final long threshold;
  private final ThreadLocal<ByteBuffer> buffers = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(0));
  private volatile boolean refused;

  /** @param threshold the least bytes read or written directly; 0 for none */
  public DirectIo(long threshold) {
    this.threshold = threshold;
  }

  /** Whether any I/O may bypass the page cache (it is on, and the file system has not refused it). */
  public boolean enabled() {
    return threshold > 0 && !refused;
  }

  /**
   * How many of {@code length} bytes written at {@code offset} bypass the page cache: all but an unaligned tail,
   * or none.
   */
  public int directBytes(long offset, int length) {
    return reads(length) && offset % ALIGNMENT == 0 ? length / ALIGNMENT * ALIGNMENT : 0;
  }

  /** Whether a read of {@code length} bytes bypasses the page cache (any offset: the read is widened). */
  public boolean reads(long length) {
    return enabled() && length >= threshold;
  }

  /** Opens {@code file} for direct I/O. */
  public static FileChannel open(Path file, OpenOption... options) throws IOException {
    OpenOption[] direct = Arrays.copyOf(options, options.length + 1);
    direct[options.length] = ExtendedOpenOption.DIRECT;
    return FileChannel.open(file, direct);
  }

  /** Copies {@code data} into this thread's aligned buffer, to be written with {@link #write}. */
  public ByteBuffer stage(ByteBuffer data) {
    return buffer(data.remaining()).put(data.duplicate()).flip();
  }

  /**
   * Writes a chunk {@link #stage}d from {@code offset}: its first {@code direct} ({@link #directBytes}) bytes, and
   * its unaligned tail with them when the chunk ends the file. A tail through the page cache left a dirty page for
   * the block's sync to write back: the syncs of 100 KiB + 32 byte chunks (an encrypted 100 KiB object) took twice
   * the CPU of 100 KiB ones. The zeros padding the tail to a page cover nothing written, and a chunk written after
   * this one overwrites them. The caller keeps other writes of the file out meanwhile. Returns how many of the
   * chunk's bytes were written.
   */
  public int write(Path file, long offset, ByteBuffer staged, int direct) throws IOException {
    try (FileChannel channel = open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      int length = staged.remaining();
      if (direct == length || channel.size() > offset + length) {
        writeFully(channel, staged.slice(0, direct), offset);
        return direct;
      }
      int padded = (length + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
      ByteBuffer page = staged.duplicate().clear().limit(padded);
      page.put(length, ZEROS, 0, padded - length);
      writeFully(channel, page, offset);
      return length;
    }
  }

  private static void writeFully(FileChannel channel, ByteBuffer data, long offset) throws IOException {
    long at = offset;
    while (data.hasRemaining()) {
      at += channel.write(data, at);
    }
  }

  /**
   * This thread's buffer, aligned, cleared, with room for {@code capacity} bytes (rounded up to the alignment).
   * Valid until the thread's next call.
   */
  public ByteBuffer buffer(int capacity) {
    int size = (capacity + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    ByteBuffer buffer = buffers.get();
    if (buffer.capacity() < size) {
      buffer = ByteBuffer.allocateDirect(size + ALIGNMENT).alignedSlice(ALIGNMENT);
      buffers.set(buffer);
    }
    return buffer.clear().limit(size);
  }

  /**
   * Direct I/O failed on {@code file}: switches it off if the file system refuses {@code O_DIRECT} (tmpfs does, on
   * opening; FUSE file systems may open the file and refuse its reads). Any other failure (a full disk, a bad
   * sector) is the disk's, and leaves direct I/O on: the caller does the same I/O through the page cache, which
   * meets it too.
   */
  public void failed(Path file, IOException cause) {
    if (!refused && !readsDirect(file)) {
      refused = true;
      LOG.warn("Direct I/O failed on {} ({}); block files are written and read through the page cache from now on",
          file, cause.toString());
    }
  }

  /** Whether the first page of {@code file} can be read directly (an empty file: whether it opens that way). */
  private boolean readsDirect(Path file) {
    try (FileChannel channel = open(file, StandardOpenOption.READ)) {
      channel.read(buffer(ALIGNMENT), 0);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
