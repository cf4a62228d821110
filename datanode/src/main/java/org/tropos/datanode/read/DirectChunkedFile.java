package org.tropos.datanode.read;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.tropos.datanode.container.DirectIo;

/**
 * A large range read past the page cache ({@code O_DIRECT}): large chunks are written that way, so a page-cache
 * read of them (sendfile) would first copy them into fresh pages. With no page cache there is no kernel read-ahead
 * either, so this reads ahead itself: up to {@value #AHEAD} pieces are read on the reader threads while the socket
 * sends the ones before. Read in turn on the event loop, each piece's disk time added to its send time, a 1 GiB
 * GET ran at 820-900 MB/s where the disk alone reads 1.1-1.2 GB/s. Each piece is read aligned straight into a
 * pooled buffer that the socket sends.
 *
 * <p>Thread-safety: pieces are read on the readers and handed out on the channel's event loop; the queue of
 * pieces under way is guarded by this object.
 */
final class DirectChunkedFile implements ChunkedInput<ByteBuf> {
  private static final int PIECE = 1 << 20;
  private static final int AHEAD = 2;

  private final DirectIo directIo;
  private final FileChannel file;
  private final long end;
  private final Executor readers;
  /** Restarts the transfer once a piece that was not read yet when asked for is. */
  private final Runnable resume;
  /** Pieces being read or read, in order, not handed out yet. */
  private final ArrayDeque<CompletableFuture<ByteBuf>> ahead = new ArrayDeque<>();
  private long position;
  private long nextRead;
  private boolean closed;

  /**
   * Reads the first piece on the calling thread (off the event loop already), so a range of one piece, a small
   * object's, is read with no hand-off; the rest is read ahead.
   *
   * @param readers where the other pieces are read (a pool that runs a task on the caller when full)
   * @param resume called when a piece the socket waits for has been read
   */
  DirectChunkedFile(DirectIo directIo, Path path, long offset, long length, ByteBufAllocator allocator,
      Executor readers, Runnable resume) throws IOException {
    this.directIo = directIo;
    this.file = DirectIo.open(path, StandardOpenOption.READ);
    this.position = offset;
    this.nextRead = offset;
    this.end = offset + length;
    this.readers = readers;
    this.resume = resume;
    synchronized (this) {
      readNext(allocator, Runnable::run);
      CompletableFuture<ByteBuf> first = ahead.peekFirst();
      if (first.isCompletedExceptionally()) {
        // A file system may open a file for direct I/O and refuse the reads (FUSE file systems do): the caller
        // then reads through the page cache instead.
        file.close();
        try {
          first.join();
        } catch (CompletionException e) {
          throw failure(e);
        }
      }
      readAhead(allocator);
    }
  }

  /** The next piece if it has been read; null (and a {@link #resume} later) if not yet. */
  @Override
  public synchronized ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
    if (isEndOfInput()) {
      return null;
    }
    readAhead(allocator);
    CompletableFuture<ByteBuf> next = ahead.peekFirst();
    if (!next.isDone()) {
      next.whenComplete((piece, failure) -> resume.run());
      return null;
    }
    ahead.removeFirst();
    ByteBuf piece;
    try {
      piece = next.join();
    } catch (CompletionException e) {
      throw failure(e);
    }
    position += piece.readableBytes();
    readAhead(allocator);
    return piece;
  }

  /** Why a piece's read failed. */
  private IOException failure(CompletionException e) {
    return e.getCause() instanceof UncheckedIOException io ? io.getCause()
        : new IOException("read of " + file + " failed: " + e.getCause(), e.getCause());
  }

  /** The next piece, once read; null at the end. For a reader on a thread of its own, never an event loop. */
  ByteBuf awaitChunk(ByteBufAllocator allocator) throws IOException {
    CompletableFuture<ByteBuf> next;
    synchronized (this) {
      if (isEndOfInput()) {
        return null;
      }
      next = ahead.peekFirst();
    }
    try {
      next.join();
    } catch (CompletionException e) {
      // readChunk reports it.
    }
    return readChunk(allocator);
  }

  /** Starts reads on the readers until {@value #AHEAD} pieces are under way or read, or the range is. */
  private void readAhead(ByteBufAllocator allocator) {
    while (ahead.size() < AHEAD && nextRead < end) {
      readNext(allocator, readers);
    }
  }

  private void readNext(ByteBufAllocator allocator, Executor executor) {
    long at = nextRead;
    int length = (int) Math.min(PIECE, end - at);
    nextRead += length;
    ahead.addLast(CompletableFuture.supplyAsync(() -> read(allocator, at, length), executor));
  }

  /**
   * {@code length} bytes at {@code at}, read aligned straight into a pooled buffer the socket sends (its aligned
   * part); into this thread's aligned buffer and copied, when the pool's buffers are not direct.
   */
  private ByteBuf read(ByteBufAllocator allocator, long at, int length) {
    long start = at / DirectIo.ALIGNMENT * DirectIo.ALIGNMENT;
    int skip = (int) (at - start);
    int span = (skip + length + DirectIo.ALIGNMENT - 1) / DirectIo.ALIGNMENT * DirectIo.ALIGNMENT;
    ByteBuf piece = allocator.directBuffer(span + DirectIo.ALIGNMENT);
    try {
      ByteBuffer memory = piece.nioBuffer(0, piece.capacity());
      if (!memory.isDirect()) {
        piece.release();
        return allocator.directBuffer(length).writeBytes(readAligned(directIo.buffer(skip + length), start, skip,
            length).position(skip).limit(skip + length));
      }
      int first = (DirectIo.ALIGNMENT - memory.alignmentOffset(0, DirectIo.ALIGNMENT)) % DirectIo.ALIGNMENT;
      readAligned(memory.position(first).limit(first + span).slice(), start, skip, length);
      return piece.setIndex(first + skip, first + skip + length);
    } catch (RuntimeException e) {
      if (piece.refCnt() > 0) {
        piece.release();
      }
      throw e;
    }
  }

  /** Reads from {@code start} into {@code aligned} until it holds {@code skip + length} bytes; returns it flipped. */
  private ByteBuffer readAligned(ByteBuffer aligned, long start, int skip, int length) {
    try {
      int n;
      do {
        // A read that ends short of a whole aligned piece reached the file's end: the next could not be aligned.
        n = file.read(aligned, start + aligned.position());
      } while (n > 0 && n % DirectIo.ALIGNMENT == 0 && aligned.hasRemaining());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (aligned.position() < skip + length) {
      throw new UncheckedIOException(new IOException("block file ended early at " + (start + aligned.position())));
    }
    return aligned.flip();
  }

  @Override
  @Deprecated
  public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
    return readChunk(ctx.alloc());
  }

  @Override
  public synchronized boolean isEndOfInput() {
    return closed || position >= end;
  }

  /** Closes the file; pieces read ahead and not sent are released as their reads end. */
  @Override
  public synchronized void close() throws IOException {
    closed = true;
    ahead.forEach(piece -> piece.thenAccept(ByteBuf::release));
    ahead.clear();
    file.close();
  }

  @Override
  public long length() {
    return end;
  }

  @Override
  public synchronized long progress() {
    return position;
  }
}
