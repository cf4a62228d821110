package org.tropos.common.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import org.tropos.common.util.NamedThreadFactory;

/**
 * Passes the pieces a reader receives on to {@code next} on a thread of its own, so that the reader receives the
 * next piece while {@code next} works on this one. A large encrypted GET so decrypts on one core while the
 * gateway's worker reads (and checks) the datanodes' next piece on another, where one thread doing both made it a
 * quarter slower than a plain one. It lends the reader its own buffers, {@value #DEPTH} of them, whose bytes go on
 * without a copy; bytes in a buffer of the reader's are copied into one first. A failure of {@code next} is thrown
 * by the reader's next call; {@link #finish} returns once {@code next} has taken everything, {@link #close} once
 * it takes no more: after either, {@code next} is the caller's again.
 *
 * <p>Not thread-safe: one reader.
 */
public final class HandOffSink implements ByteSink, AutoCloseable {
  private static final int DEPTH = 3;
  private static final ExecutorService PASSERS = Executors.newCachedThreadPool(new NamedThreadFactory(
      "sink-hand-off", true));
  /** Tells the passing thread that nothing more comes. */
  private static final ByteBuffer END = ByteBuffer.allocate(0);

  private final ByteSink next;
  private final int pieceBytes;
  private final BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(DEPTH);
  private final BlockingQueue<ByteBuffer> passed = new LinkedBlockingQueue<>();
  private final CompletableFuture<Void> done = new CompletableFuture<>();
  private int made;
  private ByteBuffer lent;
  private boolean ended;
  /** What {@code next} threw; once set, the rest is dropped. */
  private volatile RuntimeException failure;

  /** Passes pieces on to {@code next}, lending the reader buffers of {@code pieceBytes}. */
  public HandOffSink(ByteSink next, int pieceBytes) {
    this.next = next;
    this.pieceBytes = pieceBytes;
    PASSERS.execute(this::passOn);
  }

  @Override
  public ByteBuffer lend(int bytes) {
    if (bytes > pieceBytes) {
      return null;
    }
    // One lent before and never handed back (its read failed, and is tried again elsewhere) is lent again.
    if (lent == null) {
      lent = freeBuffer();
    }
    return lent.clear().limit(bytes);
  }

  @Override
  public void accept(ByteBuffer bytes) {
    throwIfFailed();
    if (bytes == lent) {
      lent = null;
      passed.add(bytes);
      return;
    }
    while (bytes.hasRemaining()) {
      ByteBuffer copy = freeBuffer().clear();
      int n = Math.min(copy.remaining(), bytes.remaining());
      copy.put(bytes.slice(bytes.position(), n)).flip();
      bytes.position(bytes.position() + n);
      passed.add(copy);
    }
  }

  /** Waits until {@code next} has taken every piece; throws what it threw. */
  public void finish() throws IOException {
    end();
    throwIfFailed();
  }

  /** Drops the pieces not yet passed on and waits until {@code next} takes no more. */
  @Override
  public void close() throws IOException {
    if (failure == null) {
      failure = new IllegalStateException("the sink was closed");
    }
    end();
  }

  private void end() throws IOException {
    if (!ended) {
      ended = true;
      passed.add(END);
    }
    try {
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the read's last pieces were passed on");
    } catch (ExecutionException e) {
      throw new IllegalStateException("the hand-off failed", e.getCause());
    }
  }

  /** The passing thread: each piece to {@code next} in order, its buffer then free again. */
  private void passOn() {
    try {
      for (ByteBuffer piece = passed.take(); piece != END; piece = passed.take()) {
        if (failure == null) {
          try {
            next.accept(piece);
          } catch (RuntimeException | Error e) {
            failure = e instanceof RuntimeException thrown ? thrown : new IllegalStateException(e);
          }
        }
        free.add(piece);
      }
    } catch (InterruptedException e) {
      failure = new UncheckedIOException(new InterruptedIOException("the hand-off's thread was interrupted"));
    } finally {
      done.complete(null);
    }
  }

  /** A buffer to fill: a new one while fewer than {@link #DEPTH} were made, else one {@code next} is done with. */
  private ByteBuffer freeBuffer() {
    ByteBuffer buffer = free.poll();
    if (buffer != null) {
      return buffer;
    }
    if (made < DEPTH) {
      made++;
      return ByteBuffer.allocate(pieceBytes);
    }
    try {
      buffer = free.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("interrupted while a read waited for memory"));
    }
    throwIfFailed();
    return buffer;
  }

  private void throwIfFailed() {
    RuntimeException failed = failure;
    if (failed != null) {
      throw failed;
    }
  }
}
