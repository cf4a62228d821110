package org.tropos.s3.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.tropos.s3.io.BulkInputStream;

/**
 * A request body as an {@link InputStream} for the worker thread, fed by Netty's event loop. Never holds the
 * whole body: past {@link #HIGH_WATER} bytes buffered the connection stops reading (TCP then slows the
 * client down) until the worker has drained below {@link #LOW_WATER}.
 *
 * <p>A client that sent {@code Expect: 100-continue} waits for "100 Continue" before it sends the body: the pipe
 * sends it when the worker first reads, that is once the request passed every check that comes before its body
 * (signature, access, conditions). A request refused earlier never makes the client send its body.
 *
 * <p>Thread-safe: {@link #offer}, {@link #end} and {@link #fail} on the event loop, reads on one worker.
 */
final class BodyPipe extends BulkInputStream {
  static final int HIGH_WATER = 4 << 20;
  static final int LOW_WATER = 1 << 20;
  private static final long READ_TIMEOUT_SECONDS = 120;

  private final Channel channel;
  private boolean awaitingContinue;
  private final ArrayDeque<ByteBuf> chunks = new ArrayDeque<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition arrived = lock.newCondition();
  private long buffered;
  private boolean ended;
  private boolean paused;
  private IOException failure;

  BodyPipe(Channel channel, boolean expectContinue) {
    this.channel = channel;
    this.awaitingContinue = expectContinue;
  }

  /** Tells a client that holds its body back until "100 Continue" to send it (once; later calls do nothing). */
  void sendContinue() {
    lock.lock();
    try {
      if (!awaitingContinue) {
        return;
      }
      awaitingContinue = false;
    } finally {
      lock.unlock();
    }
    channel.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
        Unpooled.EMPTY_BUFFER));
  }

  /** Whether the client still holds back a body it will send only after "100 Continue". */
  boolean bodyHeldBack() {
    lock.lock();
    try {
      return awaitingContinue && !ended;
    } finally {
      lock.unlock();
    }
  }

  /** Takes over {@code content} (the pipe releases it). */
  void offer(ByteBuf content) {
    lock.lock();
    try {
      if (failure != null || ended) {
        content.release();
        return;
      }
      chunks.add(content);
      buffered += content.readableBytes();
      if (buffered > HIGH_WATER && !paused) {
        paused = true;
        channel.config().setAutoRead(false);
      }
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void end() {
    lock.lock();
    try {
      ended = true;
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  void fail(IOException e) {
    lock.lock();
    try {
      if (!ended && failure == null) {
        failure = e;
      }
      arrived.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    sendContinue();
    lock.lock();
    try {
      while (chunks.isEmpty()) {
        if (failure != null) {
          throw failure;
        }
        if (ended) {
          return -1;
        }
        if (!arrived.await(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          throw new IOException("no request body data for " + READ_TIMEOUT_SECONDS + " s");
        }
      }
      ByteBuf head = chunks.peek();
      int n = Math.min(len, head.readableBytes());
      head.readBytes(b, off, n);
      if (!head.isReadable()) {
        chunks.poll().release();
      }
      buffered -= n;
      if (paused && buffered < LOW_WATER) {
        paused = false;
        channel.eventLoop().execute(() -> channel.config().setAutoRead(true));
      }
      return n;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading the request body", e);
    } finally {
      lock.unlock();
    }
  }

  /** Releases what is buffered and drops the rest of the body. */
  @Override
  public void close() {
    lock.lock();
    try {
      chunks.forEach(ByteBuf::release);
      chunks.clear();
      buffered = 0;
      if (!ended && failure == null) {
        failure = new IOException("the request body was closed");
      }
      if (paused) {
        paused = false;
        channel.eventLoop().execute(() -> channel.config().setAutoRead(true));
      }
    } finally {
      lock.unlock();
    }
  }
}
