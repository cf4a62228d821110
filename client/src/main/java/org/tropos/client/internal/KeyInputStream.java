package org.tropos.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.client.BlockLocation;
import org.tropos.proto.hdds.DatanodeDetails;
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
public final class KeyInputStream extends InputStream {
  private static final int WINDOW = 4 << 20;

  private final KeyInfo key;
  private final Map<Long, List<DatanodeDetails>> replicas = new HashMap<>();
  private final BlockStreamReader reader;
  private static final ByteBuffer NO_WINDOW = ByteBuffer.allocate(0);

  /**
   * At most {@link #WINDOW}, no larger than the key: a small object's read does not allocate 4 MB. Allocated at
   * the first read and dropped by {@link #unbuffer}.
   */
  private ByteBuffer window = NO_WINDOW;
  private long position;

  public KeyInputStream(LookupKeyResponse lookup, BlockStreamReader reader) {
    this.key = lookup.getKey();
    this.reader = reader;
    for (ContainerInfo c : lookup.getContainersList()) {
      replicas.put(c.getContainerId(), c.getReplicasList());
    }
  }

  public long length() {
    return key.getSize();
  }

  /** The key as it was looked up: the stream reads exactly this version. */
  public KeyInfo key() {
    return key;
  }

  public long position() {
    return position;
  }

  /** Moves to {@code offset} (0 to the length); the next read starts there. */
  public void seek(long offset) throws IOException {
    if (offset < 0 || offset > key.getSize()) {
      throw new IOException("cannot seek to " + offset + " in " + key.getName() + " of " + key.getSize() + " bytes");
    }
    position = offset;
    window.limit(0);
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
  public void unbuffer() {
    window = NO_WINDOW;
  }

  /** Reads the next window from the block holding {@link #position}. */
  private void fill() throws IOException {
    if (window == NO_WINDOW) {
      window = ByteBuffer.allocate((int) Math.max(1, Math.min(WINDOW, key.getSize())));
    }
    long start = 0;
    for (KeyBlock block : key.getBlocksList()) {
      if (position < start + block.getLength()) {
        long offset = position - start;
        int n = (int) Math.min(window.capacity(), block.getLength() - offset);
        List<DatanodeDetails> nodes = replicas.get(block.getBlockId().getContainerId());
        if (nodes == null || nodes.isEmpty()) {
          throw new IOException("no replica known for container " + block.getBlockId().getContainerId() + " of "
              + key.getName());
        }
        window.clear().limit(n);
        reader.read(new BlockLocation(block.getBlockId(), block.getOffset() + block.getLength()), nodes,
            block.getOffset() + offset, n, window::put);
        window.flip();
        return;
      }
      start += block.getLength();
    }
    throw new IOException(key.getName() + ": no block holds offset " + position);
  }
}
