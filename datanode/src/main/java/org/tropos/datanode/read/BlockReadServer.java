package org.tropos.datanode.read;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.NettyTransport;
import org.tropos.common.rpc.InProcessServers;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.NamedThreadFactory;
import org.tropos.common.util.Threads;
import org.tropos.datanode.container.DirectIo;
import org.tropos.datanode.security.BlockAccess;

/**
 * The datanode's block read server (ARCHITECTURE.md, "Read path"): Netty on the read port, one framed request at
 * a time per connection, answered by a header with the checksums covering the range and then the bytes. The same
 * port takes the writes to erasure-coded replicas, which have no Raft group ({@link EcWriteRequests}). In a
 * secure cluster a read needs the block's token ({@link BlockAccess}).
 * Event-loop threads only move bytes; lookups run on a bounded planner pool (past its queue a read is answered
 * DATANODE_BUSY). A client in the same JVM reads without the socket ({@link InProcessReads}).
 */
public final class BlockReadServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockReadServer.class);
  private static final int PLANNER_THREADS = 4;
  /** Large socket buffers: fewer wakeups and acknowledgements per GiB, the bulk of a block read's CPU. */
  public static final int SOCKET_BUFFER_BYTES = 4 << 20;
  private static final int PLANNER_QUEUE = 1024;
  /** Threads reading pieces of direct reads ahead of the socket (a full queue reads on the event loop). */
  private static final int READER_THREADS = 4;
  private static final int READER_QUEUE = 64;
  /** Threads writing erasure-coded chunks (each request holds at most a cell in memory while it waits). */
  private static final int WRITER_THREADS = 4;
  private static final int WRITER_QUEUE = 64;

  private final String name;
  private final HostPort bind;
  private final BlockPortService planner;
  private final BlockTransfer transfer;
  private final DirectIo directIo;
  private final BlockAccess access;
  private final Optional<SslContext> tls;
  private final LifeCycle lifeCycle;
  private EventLoopGroup loops;
  private ExecutorService planners;
  private ExecutorService readers;
  private ExecutorService writers;
  private Channel listener;
  private InetSocketAddress inProcess;
  /** Open client connections (a channel leaves the group when it closes). */
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

  /** {@code name} prefixes the threads ({@code <name>-loop-N}, {@code <name>-planner-N}, {@code <name>-reader-N}). */
  public BlockReadServer(String name, HostPort bind, BlockPortService planner, BlockTransfer transfer) {
    this(name, bind, planner, transfer, DirectIo.OFF, BlockAccess.OPEN, Optional.empty());
  }

  /**
   * @param directIo which zero-copy reads are served past the page cache instead ({@link DirectChunkedFile})
   * @param access which reads are allowed (block tokens in a secure cluster)
   * @param tls the port's TLS in a secure cluster ({@code ReadPortTls}); no zero-copy then: bytes are encrypted
   */
  public BlockReadServer(String name, HostPort bind, BlockPortService planner, BlockTransfer transfer,
      DirectIo directIo, BlockAccess access, Optional<SslContext> tls) {
    this.tls = tls;
    this.name = name;
    this.bind = bind;
    this.planner = planner;
    this.transfer = transfer;
    this.directIo = directIo;
    this.access = access;
    this.lifeCycle = new LifeCycle(name);
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    loops = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
        new NamedThreadFactory(name + "-loop", true), NettyTransport.ioHandlers());
    planners = Threads.boundedPool(name + "-planner", PLANNER_THREADS, PLANNER_QUEUE);
    readers = Threads.boundedPoolWithBackpressure(name + "-reader", READER_THREADS, READER_QUEUE);
    writers = Threads.boundedPool(name + "-writer", WRITER_THREADS, WRITER_QUEUE);
    EcWriteRequests ecWrites = new EcWriteRequests(planner, access, writers);
    ServerBootstrap bootstrap = new ServerBootstrap().group(loops).channel(NettyTransport.serverChannel())
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            tls.ifPresent(context -> ch.pipeline().addLast(context.newHandler(ch.alloc())));
            ch.pipeline().addLast(new BlockPortFrameDecoder());
            ChunkedWriteHandler chunks = new ChunkedWriteHandler();
            if (transfer == BlockTransfer.COPYING || directIo.enabled() || tls.isPresent()) {
              ch.pipeline().addLast(chunks);
            }
            ch.pipeline().addLast(new ReadRequestHandler(planner, access, planners, transfer, directIo, readers,
                chunks, tls.isPresent(), ecWrites));
            connections.add(ch);
          }
        });
    try {
      listener = bootstrap.bind(new InetSocketAddress(bind.host(), bind.port())).sync().channel();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IOException(name + " interrupted while binding " + bind, e);
    } catch (Exception e) {
      // Netty rethrows the bind's checked exceptions (e.g. BindException) undeclared.
      close();
      throw new IOException(name + " cannot listen on " + bind + ": " + e, e);
    }
    if (transfer != BlockTransfer.COPYING) {
      // The copying baseline is measured through the socket.
      inProcess = new InetSocketAddress(bind.host(), ((InetSocketAddress) listener.localAddress()).getPort());
      InProcessServers.addReads(inProcess, new InProcessReads(planner, access, directIo, ByteBufAllocator.DEFAULT,
          readers));
    }
    lifeCycle.startEnds();
    LOG.info("{}: serving block reads ({}) on {}", name, tls.isPresent() ? "over TLS" : transfer,
        new HostPort(bind.host(), port()));
  }

  public int port() {
    lifeCycle.assertRunning();
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    if (inProcess != null) {
      InProcessServers.removeReads(inProcess);
    }
    if (listener != null) {
      listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
    // Clients keep idle connections for their next read: closing them tells those clients at once.
    connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    if (loops != null) {
      loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
    if (planners != null) {
      Threads.shutdown(planners, Duration.ofSeconds(5));
    }
    if (readers != null) {
      Threads.shutdown(readers, Duration.ofSeconds(5));
    }
    if (writers != null) {
      Threads.shutdown(writers, Duration.ofSeconds(5));
    }
    lifeCycle.closeEnds();
  }
}
