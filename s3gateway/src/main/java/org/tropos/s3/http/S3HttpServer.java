package org.tropos.s3.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.NettyTransport;
import org.tropos.common.util.HeapPressure;
import org.tropos.common.util.NamedThreadFactory;
import org.tropos.common.util.Threads;

/**
 * The gateway's HTTP/1.1 server: Netty reads and writes, keep-alive, bodies streamed in both directions
 * (never aggregated), requests served on a bounded pool of worker threads because the operations block on
 * the OM and the datanodes.
 */
public final class S3HttpServer implements AutoCloseable {
  static final int MAX_INITIAL_LINE = 16 * 1024;
  static final int MAX_HEADERS = 64 * 1024;
  private static final int MAX_CHUNK = 1 << 20;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private final HostPort bind;
  private final S3Handler handler;
  private final int maxConcurrent;
  private final List<String> domains;
  private final Optional<SslContext> tls;
  private EventLoopGroup loops;
  private ExecutorService workers;
  private Channel server;

  public S3HttpServer(HostPort bind, S3Handler handler, int maxConcurrent, List<String> domains) {
    this(bind, handler, maxConcurrent, domains, Optional.empty());
  }

  /** @param tls the server's TLS context: HTTPS when present */
  public S3HttpServer(HostPort bind, S3Handler handler, int maxConcurrent, List<String> domains,
      Optional<SslContext> tls) {
    this.tls = tls;
    this.bind = bind;
    this.handler = handler;
    this.maxConcurrent = maxConcurrent;
    this.domains = List.copyOf(domains);
  }

  public void start() throws IOException {
    loops = new MultiThreadIoEventLoopGroup(0, new NamedThreadFactory("s3g-io", true), NettyTransport.ioHandlers());
    workers = Threads.boundedPool("s3g-worker", maxConcurrent, maxConcurrent);
    Semaphore permits = new Semaphore(maxConcurrent);
    ServerBootstrap bootstrap = new ServerBootstrap().group(loops).channel(NettyTransport.serverChannel())
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(512 * 1024, 2 << 20))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            tls.ifPresent(context -> ch.pipeline().addLast(context.newHandler(ch.alloc())));
            // No HttpServerExpectContinueHandler: "100 Continue" goes only to a request that passed its checks.
            ch.pipeline().addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADERS, MAX_CHUNK),
                new S3ChannelHandler(handler, workers, permits, domains, HeapPressure.jvm()));
          }
        });
    try {
      server = bootstrap.bind(new InetSocketAddress(bind.host(), bind.port())).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IOException("interrupted while binding " + bind, e);
    } catch (RuntimeException e) {
      close();
      throw new IOException("cannot listen on " + bind + ": " + e.getMessage(), e);
    }
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  @Override
  public void close() {
    if (server != null) {
      server.close().syncUninterruptibly();
    }
    if (workers != null) {
      Threads.shutdown(workers, STOP_TIMEOUT);
    }
    if (loops != null) {
      loops.shutdownGracefully(0, STOP_TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)
          .syncUninterruptibly();
    }
  }
}
