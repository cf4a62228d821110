package org.tropos.client;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Threads;

/**
 * What one client's writers of erasure-coded keys and blocks share: the pool the indexes of their stripes are
 * written on in parallel (made at the first writer), and how they reach datanodes.
 *
 * <p>Thread-safe.
 */
final class EcWrites implements AutoCloseable {
  /** Indexes written at once: a few writers' stripes of up to 16 indexes each; past that the writer waits. */
  private static final int THREADS = 32;
  private static final int QUEUE = 256;

  private final TransportSecurity transport;
  private ExecutorService pool;
  private boolean closed;

  EcWrites(TransportSecurity transport) {
    this.transport = transport;
  }

  /** A writer of one stream as groups of {@code config} from {@code allocator}, with {@code settings}' sizes. */
  BlockWriter newWriter(EcBlockGroupWriter.GroupAllocator allocator, EcReplication config,
      BlockWriteSettings settings) {
    return new EcBlockGroupWriter(allocator, config, settings, BlockStreamReader.READ_TIMEOUT, transport, pool());
  }

  private synchronized ExecutorService pool() {
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    if (pool == null) {
      pool = Threads.boundedPoolWithBackpressure("tropos-ec-writes", THREADS, QUEUE);
    }
    return pool;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (pool != null) {
      Threads.shutdown(pool, Duration.ofSeconds(5));
    }
  }
}
