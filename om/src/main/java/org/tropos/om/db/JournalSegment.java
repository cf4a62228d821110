package org.tropos.om.db;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.tropos.common.fault.FaultPoints;

/**
 * One file of the {@link OmJournal}, reused round after round: a header block (magic, format, generation = the
 * round, CRC), then records {@code [length][CRC32C][generation][payload]}. A record counts only if its CRC holds
 * and it carries the header's generation, so the records of an earlier round and a torn last write both end
 * the scan.
 *
 * <p>Why a reused, pre-written file: a sync of a write that does not grow the file need not commit file-system
 * metadata, and costs about 0.11 ms here against 0.19 ms for an append (docs/benchmarks.md). The file grows in
 * zero-filled steps, synced once each, up to its maximum size.
 *
 * <p>Not thread-safe: the journal's owner serialises calls.
 */
final class JournalSegment implements AutoCloseable {
  static final int FORMAT = 1;
  static final int HEADER_BYTES = 4096;
  static final int RECORD_OVERHEAD = 16;
  private static final int MAGIC = 0x54524a31;
  private static final int GROW_BYTES = 1 << 20;

  private final Path path;
  private final FileChannel channel;
  private final long maxBytes;
  private long generation;
  private long end;
  private long allocated;

  private JournalSegment(Path path, FileChannel channel, long maxBytes) throws IOException {
    this.path = path;
    this.channel = channel;
    this.maxBytes = maxBytes;
    this.allocated = channel.size();
  }

  /** Opens the segment file, creating it empty (generation -1) if missing. */
  static JournalSegment open(Path path, long maxBytes) throws IOException {
    FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    try {
      JournalSegment segment = new JournalSegment(path, channel, maxBytes);
      segment.generation = segment.readHeader();
      segment.end = HEADER_BYTES;
      return segment;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** The round this segment holds, or -1 if it never held one (or its header is unreadable). */
  long generation() {
    return generation;
  }

  Path path() {
    return path;
  }

  private long readHeader() throws IOException {
    ByteBuffer header = ByteBuffer.allocate(20);
    if (channel.read(header, 0) < header.capacity()) {
      return -1;
    }
    header.flip();
    int magic = header.getInt();
    int format = header.getInt();
    long round = header.getLong();
    if (magic != MAGIC || header.getInt() != crc(header.array(), 0, 16)) {
      return -1;
    }
    if (format > FORMAT) {
      throw new IOException("journal segment " + path + " has format " + format + "; this version reads up to "
          + FORMAT);
    }
    return round;
  }

  /** Reads this round's records in order and leaves the write position after the last valid one. */
  List<byte[]> records() throws IOException {
    List<byte[]> records = new ArrayList<>();
    if (generation < 0) {
      return records;
    }
    long position = HEADER_BYTES;
    ByteBuffer head = ByteBuffer.allocate(RECORD_OVERHEAD);
    while (true) {
      head.clear();
      if (readFully(head, position) < RECORD_OVERHEAD) {
        break;
      }
      int length = head.getInt(0);
      int crc = head.getInt(4);
      long round = head.getLong(8);
      if (round != generation || length < 0 || position + RECORD_OVERHEAD + length > allocated) {
        break;
      }
      ByteBuffer payload = ByteBuffer.allocate(length);
      if (readFully(payload, position + RECORD_OVERHEAD) < length || crc != recordCrc(round, payload.array())) {
        break;
      }
      records.add(payload.array());
      position += RECORD_OVERHEAD + length;
    }
    end = position;
    return records;
  }

  private int readFully(ByteBuffer buffer, long position) throws IOException {
    int total = 0;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, position + total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  /** Whether a record of {@code payloadBytes} still fits in this round. */
  boolean fits(int payloadBytes) {
    return end + RECORD_OVERHEAD + payloadBytes <= maxBytes;
  }

  /** Starts round {@code newGeneration}: the header is synced before any of its records is written. */
  void restart(long newGeneration) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(20);
    header.putInt(MAGIC).putInt(FORMAT).putLong(newGeneration).putInt(crc(header.array(), 0, 16)).flip();
    writeFully(header, 0);
    channel.force(true);
    generation = newGeneration;
    end = HEADER_BYTES;
    allocated = Math.max(allocated, HEADER_BYTES);
  }

  /** Appends one record and syncs it. */
  void append(byte[] payload) throws IOException {
    if (!fits(payload.length)) {
      throw new IOException("journal segment " + path + " is full");
    }
    ByteBuffer record = ByteBuffer.allocate(RECORD_OVERHEAD + payload.length);
    record.putInt(payload.length).putInt(recordCrc(generation, payload)).putLong(generation).put(payload).flip();
    growTo(end + record.remaining());
    writeFully(record, end);
    FaultPoints.hit(FaultPoints.JOURNAL_SYNC);
    channel.force(false);
    end += record.capacity();
  }

  /** Zero-fills the file in steps so that record syncs never grow it. */
  private void growTo(long needed) throws IOException {
    if (needed <= allocated) {
      return;
    }
    long target = Math.min(maxBytes, Math.max(needed, allocated + GROW_BYTES));

    ByteBuffer zeros = ByteBuffer.allocate(64 * 1024);
    for (long position = allocated; position < target; position += zeros.capacity()) {
      zeros.clear().limit((int) Math.min(zeros.capacity(), target - position));
      writeFully(zeros, position);
    }
    channel.force(true);
    allocated = target;
  }

  private void writeFully(ByteBuffer buffer, long position) throws IOException {
    long at = position;
    while (buffer.hasRemaining()) {
      at += channel.write(buffer, at);
    }
  }

  private static int recordCrc(long round, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(8).putLong(round).flip());
    crc.update(payload);
    return (int) crc.getValue();
  }

  private static int crc(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
