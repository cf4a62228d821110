package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.LocalBlockSource;
import org.tropos.datanode.container.DirectIo;
import org.tropos.datanode.container.ReadPlan;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;

/**
 * The read server's reads for a client in its own JVM ({@code tropos local}'s S3 gateway), without the socket: the
 * same plan and checksums a ReadBlock request is answered with, the bytes read on the caller's thread as the
 * server would send them (a large range past the page cache, read ahead on the server's readers; a small one
 * through it). The socket's hop cost a 100 KiB GET two copies of its bytes, a loopback TCP exchange and three
 * thread hand-offs.
 */
final class InProcessReads implements LocalBlockSource {
  private final BlockPortService planner;
  private final BlockAccess access;
  private final DirectIo directIo;
  private final ByteBufAllocator allocator;
  private final Executor readers;

  InProcessReads(BlockPortService planner, BlockAccess access, DirectIo directIo, ByteBufAllocator allocator,
      Executor readers) {
    this.planner = planner;
    this.access = access;
    this.directIo = directIo;
    this.allocator = allocator;
    this.readers = readers;
  }

  @Override
  public Range open(BlockId block, long offset, long length, BlockToken token) throws IOException, DatanodeException {
    access.check(token, block, AccessMode.ACCESS_READ);
    ReadPlan plan = planner.planRead(block, offset, length);
    ReadBlockResponse header = ReadRequestHandler.header(plan);
    if (directIo.reads(plan.length())) {
      try {
        return new DirectRange(header, new DirectChunkedFile(directIo, plan.file(), plan.offset(), plan.length(),
            allocator, readers, () -> { }), allocator);
      } catch (IOException e) {
        directIo.failed(plan.file(), e);
      } catch (RejectedExecutionException e) {
        throw stopped(e);
      }
    }
    return new CachedRange(header, FileChannel.open(plan.file(), StandardOpenOption.READ), plan.offset());
  }

  /** The read server stopped under a read (its readers refuse work): the caller goes to another replica. */
  private static IOException stopped(RejectedExecutionException e) {
    return new IOException("the read server stopped during the read", e);
  }

  /** A range and the header it was answered with. */
  private abstract static class AnsweredRange implements Range {
    private final ReadBlockResponse header;

    AnsweredRange(ReadBlockResponse header) {
      this.header = header;
    }

    @Override
    public ReadBlockResponse header() {
      return header;
    }
  }

  /** A range read through the page cache. */
  private static final class CachedRange extends AnsweredRange {
    private final FileChannel file;
    private long position;

    CachedRange(ReadBlockResponse header, FileChannel file, long position) {
      super(header);
      this.file = file;
      this.position = position;
    }

    @Override
    public void readFully(ByteBuffer into) throws IOException {
      while (into.hasRemaining()) {
        int n = file.read(into, position);
        if (n < 0) {
          throw new IOException("block file ended early at " + position);
        }
        position += n;
      }
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }

  /** A range read past the page cache, pieces read ahead on the read server's readers. */
  private static final class DirectRange extends AnsweredRange {
    private final DirectChunkedFile pieces;
    private final ByteBufAllocator allocator;
    private ByteBuf current;

    DirectRange(ReadBlockResponse header, DirectChunkedFile pieces, ByteBufAllocator allocator) {
      super(header);
      this.pieces = pieces;
      this.allocator = allocator;
    }

    @Override
    public void readFully(ByteBuffer into) throws IOException {
      while (into.hasRemaining()) {
        if (current == null || !current.isReadable()) {
          release();
          try {
            current = pieces.awaitChunk(allocator);
          } catch (RejectedExecutionException e) {
            throw stopped(e);
          }
          if (current == null) {
            throw new IOException("block range ended early");
          }
        }
        int limit = into.limit();
        current.readBytes(into.limit(into.position() + Math.min(into.remaining(), current.readableBytes())));
        into.limit(limit);
      }
    }

    private void release() {
      if (current != null) {
        current.release();
        current = null;
      }
    }

    @Override
    public void close() throws IOException {
      release();
      pieces.close();
    }
  }
}
