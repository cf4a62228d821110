package org.tropos.s3.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.tropos.common.io.ByteSink;

/**
 * The response to one request, written from the worker thread. A streamed body is sent in pieces, each only
 * once the connection can take more ({@link Channel#isWritable()}), so a slow reader never makes the gateway
 * buffer an object.
 *
 * <p>Not thread-safe: the request's worker.
 */
public final class S3Response {
  private static final long WRITE_TIMEOUT_SECONDS = 120;
  private static final long LINGER_SECONDS = 2;

  private final Channel channel;
  private final String requestId;
  private final BooleanSupplier keepAlive;
  private final HttpHeaders headers = new DefaultHttpHeaders();
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  private boolean sent;
  private int status;
  private long bodyBytes;

  /**
   * A response on {@code channel}; {@code keepAlive} says, when the response starts, whether the connection may
   * serve another request after it (not when the client asked to close, nor when a body it was to send is
   * still unread and never will be).
   */
  S3Response(Channel channel, String requestId, BooleanSupplier keepAlive) {
    this.channel = channel;
    this.requestId = requestId;
    this.keepAlive = keepAlive;
    headers.set("x-amz-request-id", requestId);
    headers.set(HttpHeaderNames.SERVER, "Tropos");
  }

  public String requestId() {
    return requestId;
  }

  /** Headers of the response, to fill before sending. */
  public HttpHeaders headers() {
    return headers;
  }

  public boolean sent() {
    return sent;
  }

  /** The status sent, 0 before the response starts. */
  public int status() {
    return status;
  }

  /** The bytes of body sent or streaming (a HEAD's none). */
  public long bodyBytes() {
    return bodyBytes;
  }

  /**
   * Completes once the response's last write is queued on the connection, or the response was given up
   * ({@link #giveUp}): from then on, the connection's next response cannot interleave with this one.
   */
  CompletableFuture<Void> ended() {
    return ended;
  }

  /** Ends a response that will send nothing more (its request failed, or the connection did). */
  void giveUp() {
    ended.complete(null);
  }

  /** Sends a whole small body (XML, or empty). */
  public void send(int status, byte[] content, String contentType) {
    DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
        HttpResponseStatus.valueOf(status), Unpooled.wrappedBuffer(content));
    response.headers().set(headers);
    if (contentType != null) {
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    }
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.length);
    this.status = status;
    this.bodyBytes = content.length;
    boolean keep = keepConnection(response);
    finish(channel.writeAndFlush(response), keep);
  }

  /** Sends headers only, with the length a body would have had (HEAD). */
  public void sendHead(int status, long contentLength) {
    DefaultFullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
        HttpResponseStatus.valueOf(status), Unpooled.EMPTY_BUFFER);
    response.headers().set(headers);
    response.headers().set(HttpHeaderNames.CONTENT_LENGTH, contentLength);
    this.status = status;
    boolean keep = keepConnection(response);
    finish(channel.writeAndFlush(response), keep);
  }

  /** A response body that hands its bytes on as they arrive, to a sink that lends the memory they arrive in. */
  @FunctionalInterface
  public interface Body {
    void writeTo(ByteSink out) throws IOException;
  }

  /**
   * Streams a body of exactly {@code length} bytes, sent from pooled direct buffers: bytes received into one the
   * response lent are sent as they are, others copied once. A body that fails, or delivers more or fewer bytes
   * than {@code length}, closes the connection: its length was promised.
   */
  public void stream(int status, long length, Body body) throws IOException {
    DefaultHttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
    response.headers().set(headers);
    response.headers().set(HttpHeaderNames.CONTENT_LENGTH, length);
    boolean keep = keepConnection(response);
    sent = true;
    this.status = status;
    this.bodyBytes = length;
    Pieces pieces = new Pieces(response, length);
    ChannelFuture last;
    try {
      body.writeTo(pieces);
      last = pieces.end();
    } catch (UncheckedIOException e) {
      channel.close();
      throw e.getCause();
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    } finally {
      pieces.freeUnreturned();
    }
    finish(last, keep);
  }

  /**
   * A streamed body's pieces as messages. Each message written from the worker is a task for the connection's
   * event loop, so a body that arrives in one piece (a small object's) leaves with its headers and its end as one
   * message; a longer one as the headers, its pieces and the last piece with the end.
   */
  private final class Pieces implements ByteSink {
    private HttpResponse unsentHeaders;
    private long remaining;
    private ChannelFuture last;
    /** The buffer lent last and not yet handed back, and the view of it the reader fills. */
    private ByteBuf lent;
    private ByteBuffer lentView;

    Pieces(HttpResponse headers, long length) {
      this.unsentHeaders = headers;
      this.remaining = length;
    }

    @Override
    public ByteBuffer lend(int bytes) {
      if (bytes > remaining) {
        return null;
      }
      freeUnreturned();
      lent = channel.alloc().directBuffer(bytes);
      lentView = lent.nioBuffer(0, bytes);
      return lentView;
    }

    @Override
    public void accept(ByteBuffer piece) {
      try {
        send(piece);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private void send(ByteBuffer piece) throws IOException {
      int n = piece.remaining();
      if (n == 0) {
        return;
      }
      if (n > remaining) {
        throw new IOException("the body holds more bytes than the " + remaining + " left of its length");
      }
      ByteBuf content = piece == lentView ? returned(piece) : channel.alloc().directBuffer(n).writeBytes(piece);
      remaining -= n;
      if (remaining > 0) {
        if (unsentHeaders != null) {
          channel.write(unsentHeaders);
          unsentHeaders = null;
        }
        awaitWritable(channel.writeAndFlush(new DefaultHttpContent(content)));
      } else if (unsentHeaders != null) {
        last = channel.writeAndFlush(whole(content));
      } else {
        last = channel.writeAndFlush(new DefaultLastHttpContent(content));
      }
    }

    /** The lent buffer, back with the view's bytes in it; it is now sent, and no longer this sink's to free. */
    private ByteBuf returned(ByteBuffer view) {
      ByteBuf content = lent.setIndex(view.position(), view.limit());
      lent = null;
      lentView = null;
      return content;
    }

    /** A buffer lent to a read that failed before handing it back. */
    void freeUnreturned() {
      if (lent != null) {
        lent.release();
        lent = null;
        lentView = null;
      }
    }

    /** Sends what is left of an empty body; the write of its end. */
    ChannelFuture end() throws IOException {
      if (remaining > 0) {
        throw new IOException("the body ended " + remaining + " bytes short of its length");
      }
      return last != null ? last : channel.writeAndFlush(whole(Unpooled.EMPTY_BUFFER));
    }

    private FullHttpResponse whole(ByteBuf content) {
      return new DefaultFullHttpResponse(unsentHeaders.protocolVersion(), unsentHeaders.status(), content,
          unsentHeaders.headers(), EmptyHttpHeaders.INSTANCE);
    }
  }

  /** Waits while the connection's outbound buffer is full (or this write failed). */
  private void awaitWritable(ChannelFuture write) throws IOException {
    if (channel.isWritable()) {
      return;
    }
    try {
      write.get(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while sending", e);
    } catch (ExecutionException | TimeoutException e) {
      channel.close();
      throw new IOException("the client stopped reading: " + e.getMessage(), e);
    }
  }

  /**
   * After the last byte: the connection stays open unless the client asked to close it. A request body not read
   * (an early error) is discarded as it arrives ({@link BodyPipe#close}); closing instead would race with the
   * client reusing the connection for its next request.
   */
  private void finish(ChannelFuture last, boolean keep) {
    sent = true;
    if (!keep) {
      last.addListener(written -> closeLingering(channel));
    }
    ended.complete(null);
  }

  /**
   * Closes a connection whose client may still be sending (headers too large, a body refused unread): first its
   * end for writing, so the client reads the whole response and then its end, and the connection itself once the
   * client closes its end too, or after {@link #LINGER_SECONDS}. Closed at once with bytes unread, the kernel
   * answers them with a reset, and the client loses the response it has not read yet (seen with the epoll
   * transport, which closes sooner than NIO did).
   */
  private static void closeLingering(Channel channel) {
    if (!(channel instanceof DuplexChannel duplex) || !channel.isActive()) {
      channel.close();
      return;
    }
    duplex.shutdownOutput().addListener(shut -> {
      channel.config().setAutoRead(true);
      channel.eventLoop().schedule(() -> channel.close(), LINGER_SECONDS, TimeUnit.SECONDS);
    });
  }

  /** Whether the connection stays open after this response; if not, the response says so. */
  private boolean keepConnection(HttpResponse response) {
    boolean keep = keepAlive.getAsBoolean();
    if (!keep) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return keep;
  }
}
