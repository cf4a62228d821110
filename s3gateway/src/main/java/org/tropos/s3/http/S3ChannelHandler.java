package org.tropos.s3.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.util.HeapPressure;
import org.tropos.s3.error.S3ErrorCode;

/**
 * One connection: each request is handed to a worker thread with its body as a {@link BodyPipe}, once the
 * connection's previous response has ended; at most {@code permits} requests of the whole gateway are served at
 * once, the rest get 503 SlowDown at once. While the heap is under pressure ({@link HeapPressure}) a request
 * that brings data in (PUT, POST) gets 503 SlowDown with a Retry-After header at once; reads, listings and deletes
 * are served.
 *
 * <p>Event-loop confined, except what the worker touches through the pipe and the response, and {@link #answer},
 * which runs on the thread that ended the previous response.
 */
final class S3ChannelHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(S3ChannelHandler.class);
  private static final AtomicLong REQUEST_IDS = new AtomicLong();

  private final S3Handler handler;
  private final ExecutorService workers;
  private final Semaphore permits;
  private final List<String> domains;
  private final HeapPressure pressure;
  private BodyPipe body;
  private CompletableFuture<Void> lastResponse = CompletableFuture.completedFuture(null);

  S3ChannelHandler(S3Handler handler, ExecutorService workers, Semaphore permits, List<String> domains,
      HeapPressure pressure) {
    this.handler = handler;
    this.workers = workers;
    this.permits = permits;
    this.domains = domains;
    this.pressure = pressure;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof HttpRequest request) {
      start(ctx, request);
    }
    if (msg instanceof HttpContent content) {
      if (body != null) {
        body.offer(content.content().retain());
        if (content instanceof LastHttpContent) {
          body.end();
        }
      }
      content.release();
    }
  }

  private void start(ChannelHandlerContext ctx, HttpRequest request) {
    // After a request the decoder could not read, the rest of what the client sends is garbage to it: close.
    boolean readable = request.decoderResult().isSuccess();
    BodyPipe pipe = new BodyPipe(ctx.channel(), readable && HttpUtil.is100ContinueExpected(request));
    body = pipe;
    boolean keepAlive = readable && HttpUtil.isKeepAlive(request);
    String requestId = Long.toHexString(System.identityHashCode(ctx.channel())) + "-"
        + Long.toHexString(REQUEST_IDS.incrementAndGet());
    // A body the client holds back until "100 Continue" never comes: its connection cannot serve another request.
    S3Response response = new S3Response(ctx.channel(), requestId, () -> keepAlive && !pipe.bodyHeldBack());
    // Responses go out in the order of their requests, one after the other: a client may send its next request as
    // soon as it has read the last response's final byte, before that response's end is queued on the connection
    // (or sooner, pipelining), and the two responses must not interleave.
    CompletableFuture<Void> previous = lastResponse;
    lastResponse = response.ended();
    SocketAddress from = ctx.channel().remoteAddress();
    boolean secure = ctx.pipeline().get(SslHandler.class) != null;
    previous.thenRun(() -> answer(request, pipe, response, from, secure)).exceptionally(e -> {
      LOG.error("S3 {} {} could not be served", request.method(), request.uri(), e);
      response.giveUp();
      ctx.close();
      return null;
    });
  }

  /** Refuses the request at once or hands it to a worker. */
  private void answer(HttpRequest request, BodyPipe pipe, S3Response response, SocketAddress from,
      boolean secure) {
    if (!request.decoderResult().isSuccess()) {
      Throwable cause = request.decoderResult().cause();
      if (cause instanceof TooLongHttpHeaderException) {
        refuse(pipe, response, S3ErrorCode.REQUEST_HEADER_SECTION_TOO_LARGE, "Your request header section exceeds"
            + " the maximum allowed size of " + S3HttpServer.MAX_HEADERS + " bytes.", "");
      } else if (cause instanceof TooLongHttpLineException) {
        refuse(pipe, response, S3ErrorCode.INVALID_REQUEST, "Your request line exceeds the maximum allowed size of "
            + S3HttpServer.MAX_INITIAL_LINE + " bytes.", "");
      } else {
        refuse(pipe, response, S3ErrorCode.INVALID_REQUEST, "Malformed HTTP request", "");
      }
      return;
    }
    // An expectation HTTP/1.0 cannot have is ignored (RFC 7231, 5.1.1).
    String expect = request.headers().get(HttpHeaderNames.EXPECT);
    if (expect != null && request.protocolVersion().equals(HttpVersion.HTTP_1_1)
        && !HttpUtil.is100ContinueExpected(request)) {
      refuse(pipe, response, S3ErrorCode.EXPECTATION_FAILED, "Only Expect: 100-continue is supported", "");
      return;
    }
    HttpMethod method = request.method();
    if ((method.equals(HttpMethod.PUT) || method.equals(HttpMethod.POST)) && pressure.high()) {
      response.headers().set(HttpHeaderNames.RETRY_AFTER, Long.toString(HeapPressure.RETRY_AFTER.toSeconds()));
      refuse(pipe, response, S3ErrorCode.SLOW_DOWN, "Please reduce your request rate: " + pressure.reason(),
          request.uri());
      return;
    }
    if (!permits.tryAcquire()) {
      refuse(pipe, response, S3ErrorCode.SLOW_DOWN, S3ErrorCode.SLOW_DOWN.error().getMessage(), request.uri());
      return;
    }
    S3Request s3 = S3Request.of(request, domains, pipe, from, secure);
    try {
      workers.execute(() -> serve(s3, response, pipe));
    } catch (RejectedExecutionException e) {
      permits.release();
      refuse(pipe, response, S3ErrorCode.SLOW_DOWN, S3ErrorCode.SLOW_DOWN.error().getMessage(), request.uri());
    }
  }

  /** Answers at once; the body, if any, is dropped as it arrives. */
  private void refuse(BodyPipe pipe, S3Response response, S3ErrorCode error, String message, String resource) {
    pipe.close();
    response.send(error.status(), ErrorDocument.of(error.code(), message, resource, response.requestId()),
        ErrorDocument.TYPE);
  }

  private void serve(S3Request request, S3Response response, BodyPipe pipe) {
    try {
      handler.handle(request, response);
    } catch (RuntimeException e) {
      LOG.error("S3 {} {}/{} failed unexpectedly", request.method(), request.bucket(), request.key(), e);
      if (!response.sent()) {
        response.send(500, ErrorDocument.of("InternalError", "We encountered an internal error. Please try again.",
            request.rawPath(), response.requestId()), ErrorDocument.TYPE);
      }
    } finally {
      pipe.close();
      permits.release();
      response.giveUp();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (body != null) {
      body.fail(new IOException("the client closed the connection"));
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    LOG.debug("S3 connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    if (body != null) {
      body.fail(new IOException("connection failed: " + cause.getMessage(), cause));
    }
    ctx.close();
  }
}
