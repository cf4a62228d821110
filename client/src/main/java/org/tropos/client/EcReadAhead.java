package org.tropos.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.tropos.common.io.ByteSink;
import org.tropos.proto.hdds.BlockId;

/**
 * One stream's read-ahead of an erasure-coded group, by windows of whole stripes: the window being handed on is kept
 * (the stream's reads may cut it in several), and the next one is fetched meanwhile, so the indexes' reads overlap
 * with what the reader does with the bytes. A read outside both drops them; a window whose fetch failed is read
 * again in the foreground, where its failure is reported.
 *
 * <p>Not thread-safe: one stream.
 */
final class EcReadAhead {
  /**
   * What a fetch runs: reads {@code length} bytes of the group from {@code offset} into {@code sink}, in buffers the
   * reader does not use again (they are kept, not copied).
   */
  @FunctionalInterface
  interface PieceReader {
    void read(long offset, int length, ByteSink sink) throws IOException;
  }

  private record Window(BlockId group, long offset, int length, CompletableFuture<List<ByteBuffer>> bytes) {
    boolean holds(BlockId g, long at, int n) {
      return group.equals(g) && at >= offset && at + n <= offset + length;
    }
  }

  private final Executor executor;
  /** The window the stream reads in, and the one after it. */
  private Window current;
  private Window next;

  EcReadAhead(Executor executor) {
    this.executor = executor;
  }

  /**
   * Bytes {@code [at, at + n)} of {@code group} if a window fetched ahead holds them and its fetch succeeded, in
   * order; else null. A read in the next window makes it the current one; one to a window's end lets it go.
   */
  List<ByteBuffer> take(BlockId group, long at, int n) throws IOException {
    if (next != null && next.holds(group, at, n)) {
      current = next;
      next = null;
    } else if (current == null || !current.holds(group, at, n)) {
      current = null;
      next = null;
      return null;
    }
    List<ByteBuffer> window;
    try {
      window = current.bytes().get();
    } catch (ExecutionException e) {
      current = null;
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a read ahead of block group " + group);
    }
    long skip = at - current.offset();
    if (at + n == current.offset() + current.length()) {
      current = null; // read to its end: the views handed out keep what they need
    }
    return slice(window, skip, n);
  }

  /** Starts fetching {@code length} bytes of {@code group} from {@code offset}, unless a window starting there is. */
  void start(BlockId group, long offset, int length, PieceReader reader) {
    if (current != null && current.group().equals(group) && current.offset() == offset
        || next != null && next.group().equals(group) && next.offset() == offset) {
      return;
    }
    next = new Window(group, offset, length, CompletableFuture.supplyAsync(() -> {
      List<ByteBuffer> piece = new ArrayList<>();
      try {
        reader.read(offset, length, piece::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return piece;
    }, executor));
  }

  /** Views of {@code n} bytes from {@code skip} of a window's buffers, which keep their positions. */
  private static List<ByteBuffer> slice(List<ByteBuffer> window, long skip, int n) {
    List<ByteBuffer> views = new ArrayList<>();
    for (ByteBuffer buffer : window) {
      if (n == 0) {
        break;
      }
      if (skip >= buffer.remaining()) {
        skip -= buffer.remaining();
        continue;
      }
      int length = (int) Math.min(n, buffer.remaining() - skip);
      views.add(buffer.slice(buffer.position() + (int) skip, length));
      n -= length;
      skip = 0;
    }
    return views;
  }
}
