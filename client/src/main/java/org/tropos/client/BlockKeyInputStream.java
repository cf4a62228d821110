package org.tropos.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.io.ByteSink;
import org.tropos.common.util.KeyBlocks;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.scm.ContainerInfo;

/**
 * Reads one key: its blocks in order, a window at a time, from the nearest replica first (the OM's lookup lists
 * replicas in that order), every byte verified against its checksum. Supports {@link #seek}.
 *
 * <p>Not thread-safe: one reader.
 */
final class BlockKeyInputStream extends KeyInputStream {
  private static final int WINDOW = 4 << 20;

  private final KeyInfo key;
  /** The READ token of each of the key's blocks, in their order (a secure cluster's; else empty). */
  private final List<BlockToken> tokens;
  private final Map<Long, ContainerInfo> containers = new HashMap<>();
  private final BlockStreamReader reader;
  private static final ByteBuffer NO_WINDOW = ByteBuffer.allocate(0);

  /**
   * At most {@link #WINDOW}, no larger than the key: a small object's read does not allocate 4 MB. Allocated at
   * the first read and dropped by {@link #unbuffer}.
   */
  private ByteBuffer window = NO_WINDOW;
  private long position;

  public BlockKeyInputStream(LookupKeyResponse lookup, BlockStreamReader reader) {
    this.key = lookup.getKey();
    this.tokens = lookup.getBlockTokensList();
    this.reader = reader;
    for (ContainerInfo c : lookup.getContainersList()) {
      containers.put(c.getContainerId(), c);
    }
  }

  @Override
  public long length() {
    return key.getSize();
  }

  /** The key as it was looked up: the stream reads exactly this version. */
  @Override
  public KeyInfo key() {
    return key;
  }

  @Override
  public long position() {
    return position;
  }

  /** Moves to {@code offset} (0 to the length); the next read starts there. */
  @Override
  public void seek(long offset) throws IOException {
    if (offset < 0 || offset > key.getSize()) {
      throw new IOException("cannot seek to " + offset + " in " + key.getName() + " of " + key.getSize() + " bytes");
    }
    // A seek within the bytes read ahead keeps them: a reader that reads a header, then what it points to, near.
    long windowStart = position - window.position();
    if (offset >= windowStart && offset <= windowStart + window.limit()) {
      window.position((int) (offset - windowStart));
    } else {
      window.limit(0);
    }
    position = offset;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (position >= key.getSize()) {
      return -1;
    }
    if (!window.hasRemaining()) {
      fill();
    }
    int n = Math.min(len, window.remaining());
    window.get(b, off, n);
    position += n;
    return n;
  }

  @Override
  public int available() {
    return window.remaining();
  }

  /** Drops the read buffer (an idle stream kept open holds no memory); the next read allocates it again. */
  @Override
  public void unbuffer() {
    window = NO_WINDOW;
  }

  /**
   * Hands the next {@code length} bytes, every one verified, to {@code sink} as they arrive, without buffering
   * them here: each block's range is one read, streamed by its datanode. A buffer of the reader's is valid only
   * during the call; one the sink lends ({@link ByteSink#lend}) is filled and handed back.
   */
  @Override
  public void transferTo(long length, ByteSink sink) throws IOException {
    if (length < 0 || length > key.getSize() - position) {
      throw new IOException("cannot read " + length + " bytes at " + position + " of " + key.getName() + " ("
          + key.getSize() + " bytes)");
    }
    long end = position + length;
    if (window.hasRemaining()) {
      int n = (int) Math.min(window.remaining(), length);
      ByteBuffer buffered = window.slice(window.position(), n);
      window.position(window.position() + n);
      position += n;
      sink.accept(buffered);
    }
    while (position < end) {
      BlockSpan span = spanAt(position);
      readBlock(span, Math.min(end - position, span.left()), sink.counted(bytes -> position += bytes));
    }
  }

  /** Reads the next window from the block holding {@link #position}. */
  private void fill() throws IOException {
    if (window == NO_WINDOW) {
      window = ByteBuffer.allocate((int) Math.max(1, Math.min(WINDOW, key.getSize())));
    }
    BlockSpan span = spanAt(position);
    window.clear().limit((int) Math.min(window.capacity(), span.left()));
    readBlock(span, window.limit(), window::put);
    window.flip();
  }

  /** A position in a block of the key. */
  private record BlockSpan(int index, KeyBlock block, long offset) {
    long left() {
      return block.getLength() - offset;
    }
  }

  private BlockSpan spanAt(long at) throws IOException {
    long start = 0;
    for (int i = 0; i < key.getBlocksCount(); i++) {
      KeyBlock block = key.getBlocks(i);
      if (at < start + block.getLength()) {
        return new BlockSpan(i, block, at - start);
      }
      start += block.getLength();
    }
    throw new IOException(key.getName() + ": no block holds offset " + at);
  }

  private void readBlock(BlockSpan span, long length, ByteSink sink) throws IOException {
    KeyBlock block = span.block();
    ContainerInfo container = containers.get(block.getBlockId().getContainerId());
    if (container == null || container.getReplicasCount() == 0) {
      throw new IOException("no replica known for container " + block.getBlockId().getContainerId() + " of "
          + key.getName());
    }
    BlockToken token = span.index() < tokens.size() ? tokens.get(span.index()) : BlockToken.getDefaultInstance();
    BlockLocation location = new BlockLocation(block.getBlockId(), KeyBlocks.wholeLength(block), token);
    if (container.hasEc()) {
      reader.readGroup(location, container, block.getOffset() + span.offset(), length, sink);
    } else {
      reader.read(location, container.getReplicasList(), block.getOffset() + span.offset(), length, sink);
    }
  }
}
