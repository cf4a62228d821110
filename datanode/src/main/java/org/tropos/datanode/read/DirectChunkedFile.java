package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.tropos.datanode.container.DirectIo;

/**
 * A large range read past the page cache ({@code O_DIRECT}): large chunks are written that way, so a page-cache
 * read of them (sendfile) would first copy them into fresh pages. Each piece is read aligned into the thread's
 * buffer and copied into a pooled buffer that the socket sends.
 */
final class DirectChunkedFile extends FileRangeInput {
  private static final int PIECE = 1 << 20;

  private final DirectIo directIo;

  DirectChunkedFile(DirectIo directIo, Path path, long offset, long length) throws IOException {
    super(DirectIo.open(path, StandardOpenOption.READ), offset, length);
    this.directIo = directIo;
  }

  @Override
  protected ByteBuf readPiece(ByteBufAllocator allocator) throws IOException {
    long start = position / DirectIo.ALIGNMENT * DirectIo.ALIGNMENT;
    int skip = (int) (position - start);
    ByteBuffer aligned = directIo.buffer((int) Math.min(PIECE, skip + end - position));
    int n;
    do {
      // A read that ends short of a whole aligned piece reached the file's end: the next could not be aligned.
      n = file.read(aligned, start + aligned.position());
    } while (n > 0 && n % DirectIo.ALIGNMENT == 0 && aligned.hasRemaining());
    int wanted = (int) Math.min(end - position, aligned.position() - skip);
    if (wanted <= 0) {
      throw new IOException("block file ended early at " + position);
    }
    return allocator.directBuffer(wanted).writeBytes(aligned.flip().position(skip).limit(skip + wanted));
  }
}
