package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A range of a block file sent one piece at a time as the socket drains ({@code ChunkedWriteHandler}); the
 * subclass says how a piece is read.
 */
abstract class FileRangeInput implements ChunkedInput<ByteBuf> {
  protected final FileChannel file;
  protected final long end;
  protected long position;

  FileRangeInput(FileChannel file, long offset, long length) {
    this.file = file;
    this.position = offset;
    this.end = offset + length;
  }

  /** The next piece, from {@link #position}: at least one byte, none past {@link #end}. */
  protected abstract ByteBuf readPiece(ByteBufAllocator allocator) throws IOException;

  @Override
  public final ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
    if (isEndOfInput()) {
      return null;
    }
    ByteBuf piece = readPiece(allocator);
    position += piece.readableBytes();
    return piece;
  }

  @Override
  @Deprecated
  public final ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
    return readChunk(ctx.alloc());
  }

  @Override
  public final boolean isEndOfInput() {
    return position >= end;
  }

  @Override
  public final void close() throws IOException {
    file.close();
  }

  @Override
  public final long length() {
    return end;
  }

  @Override
  public final long progress() {
    return position;
  }
}
