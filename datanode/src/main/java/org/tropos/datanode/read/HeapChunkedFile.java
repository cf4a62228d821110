package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@link BlockTransfer#COPYING}: reads the range into fresh heap buffers, one chunk at a time as the socket drains. */
final class HeapChunkedFile implements ChunkedInput<ByteBuf> {
  private static final int CHUNK = 64 * 1024;

  private final FileChannel file;
  private final long end;
  private long position;

  HeapChunkedFile(Path path, long offset, long length) throws IOException {
    this.file = FileChannel.open(path, StandardOpenOption.READ);
    this.position = offset;
    this.end = offset + length;
  }

  @Override
  public boolean isEndOfInput() {
    return position >= end;
  }

  @Override
  public void close() throws IOException {
    file.close();
  }

  @Override
  @Deprecated
  public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
    return readChunk(ctx.alloc());
  }

  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
    if (isEndOfInput()) {
      return null;
    }
    byte[] heap = new byte[(int) Math.min(CHUNK, end - position)];
    ByteBuffer target = ByteBuffer.wrap(heap);
    while (target.hasRemaining()) {
      int n = file.read(target, position + target.position());
      if (n < 0) {
        throw new IOException("block file ended early at " + (position + target.position()));
      }
    }
    position += heap.length;
    return Unpooled.wrappedBuffer(heap);
  }

  @Override
  public long length() {
    return end;
  }

  @Override
  public long progress() {
    return position;
  }
}
