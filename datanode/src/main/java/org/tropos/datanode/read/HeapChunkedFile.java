package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@link BlockTransfer#COPYING}: reads the range into fresh heap buffers, one chunk at a time as the socket drains. */
final class HeapChunkedFile extends FileRangeInput {
  private static final int CHUNK = 64 * 1024;

  HeapChunkedFile(Path path, long offset, long length) throws IOException {
    super(FileChannel.open(path, StandardOpenOption.READ), offset, length);
  }

  @Override
  protected ByteBuf readPiece(ByteBufAllocator allocator) throws IOException {
    byte[] heap = new byte[(int) Math.min(CHUNK, end - position)];
    ByteBuffer target = ByteBuffer.wrap(heap);
    while (target.hasRemaining()) {
      int n = file.read(target, position + target.position());
      if (n < 0) {
        throw new IOException("block file ended early at " + (position + target.position()));
      }
    }
    return Unpooled.wrappedBuffer(heap);
  }
}
