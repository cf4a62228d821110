package org.tropos.tools.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.tropos.common.util.Threads;
import org.tropos.datanode.read.BlockReadServer;

/**
 * The kernel's own limit for the read benchmark: a minimal server that {@code sendfile}s the block file over
 * loopback (no protocol, no checksums) to a reader that discards it, with the same socket buffer sizes as the
 * Tropos read path.
 */
final class SendfileBaseline implements AutoCloseable {
  static final String THREAD_PREFIX = "bench-sendfile";

  private final ExecutorService server = Threads.boundedPool(THREAD_PREFIX, 1, 1);

  /** Streams {@code file} once; returns the bytes received. */
  long streamOnce(Path file) throws Exception {
    try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
      Future<Long> sent = server.submit(() -> send(listener, file));
      long received = 0;
      try (SocketChannel reader = SocketChannel.open()) {
        reader.setOption(StandardSocketOptions.SO_RCVBUF, BlockReadServer.SOCKET_BUFFER_BYTES);
        reader.connect(listener.getLocalAddress());
        ByteBuffer sink = ByteBuffer.allocateDirect(1 << 20);
        for (int n = reader.read(sink); n >= 0; n = reader.read(sink)) {
          received += n;
          sink.clear();
        }
      }
      sent.get();
      return received;
    }
  }

  private static long send(ServerSocketChannel listener, Path file) throws IOException {
    try (SocketChannel out = listener.accept(); FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      out.setOption(StandardSocketOptions.SO_SNDBUF, BlockReadServer.SOCKET_BUFFER_BYTES);
      long size = in.size();
      long at = 0;
      while (at < size) {
        at += in.transferTo(at, size - at, out);
      }
      return at;
    }
  }

  @Override
  public void close() {
    Threads.shutdown(server, java.time.Duration.ofSeconds(5));
  }
}
