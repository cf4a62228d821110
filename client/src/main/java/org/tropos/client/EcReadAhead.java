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
 * One stream's read-ahead of an erasure-coded group: while the reader hands one piece on, the next is fetched, so
 * the indexes' reads overlap with what the reader does with the bytes. One piece ahead at most; a piece fetched
 * for an offset the stream does not read next is dropped, and one whose fetch failed is read again in the
 * foreground, where its failure is reported.
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

  private record Ahead(BlockId group, long offset, int length, CompletableFuture<List<ByteBuffer>> bytes) {
  }

  private final Executor executor;
  private Ahead ahead;

  EcReadAhead(Executor executor) {
    this.executor = executor;
  }

  /** The piece of {@code group} at {@code offset} fetched ahead, if it was and succeeded, in order; else null. */
  List<ByteBuffer> take(BlockId group, long offset, int length) throws IOException {
    Ahead a = ahead;
    ahead = null;
    if (a == null || !a.group().equals(group) || a.offset() != offset || a.length() != length) {
      return null;
    }
    try {
      return a.bytes().get();
    } catch (ExecutionException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for a read ahead of block group " + group);
    }
  }

  /** Starts fetching {@code length} bytes of {@code group} from {@code offset}. */
  void start(BlockId group, long offset, int length, PieceReader reader) {
    ahead = new Ahead(group, offset, length, CompletableFuture.supplyAsync(() -> {
      List<ByteBuffer> piece = new ArrayList<>();
      try {
        reader.read(offset, length, piece::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return piece;
    }, executor));
  }
}
