package org.tropos.common.rpc;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;

/**
 * Idle connections to datanodes' read servers, kept for the next read from the same node: opening one costs a
 * TCP handshake, a selector and a 1 MiB buffer, which dominated the server CPU of small-object GETs. A connection
 * comes back only after a read that ended cleanly; before reuse it must still be open with nothing unread, and
 * one idle longer than {@code maxIdle} is closed instead. At most {@code maxIdlePerNode} are kept per node.
 *
 * <p>Thread-safe: shared by every reader of a client.
 */
public final class BlockReadPool implements AutoCloseable {
  private record Idle(BlockReadClient client, long sinceNanos) {
  }

  private final Duration timeout;
  private final TransportSecurity transport;
  private final int maxIdlePerNode;
  private final long maxIdleNanos;
  private final Clock clock;
  private final Map<HostPort, ArrayDeque<Idle>> idle = new HashMap<>();
  private boolean closed;

  /**
   * @param timeout the connect and read timeout of every connection
   * @param transport TLS to the read servers in a secure cluster
   * @param maxIdlePerNode connections kept per node; 0 closes each after its read
   */
  public BlockReadPool(Duration timeout, TransportSecurity transport, int maxIdlePerNode, Duration maxIdle,
      Clock clock) {
    this.timeout = timeout;
    this.transport = transport;
    this.maxIdlePerNode = maxIdlePerNode;
    this.maxIdleNanos = maxIdle.toNanos();
    this.clock = clock;
  }

  /** A connection to {@code address}: an idle one that is still good, else a new one. */
  public BlockReadClient borrow(HostPort address) throws IOException {
    while (true) {
      Idle kept;
      synchronized (this) {
        ArrayDeque<Idle> queue = idle.get(address);
        kept = queue == null ? null : queue.pollLast();
      }
      if (kept == null) {
        return open(address);
      }
      if (clock.monotonicNanos() - kept.sinceNanos() < maxIdleNanos && kept.client().isOpenWithNothingUnread()) {
        return kept.client();
      }
      kept.client().close();
    }
  }

  /** A new connection to {@code address}, whatever is kept: for a retry after a kept one failed. */
  public BlockReadClient open(HostPort address) throws IOException {
    return new BlockReadClient(address, timeout, transport);
  }

  /** Takes back a connection whose last read ended cleanly (after a failure, close it instead). */
  public void release(BlockReadClient client) throws IOException {
    synchronized (this) {
      ArrayDeque<Idle> queue = idle.computeIfAbsent(client.address(), a -> new ArrayDeque<>());
      if (!closed && queue.size() < maxIdlePerNode) {
        queue.addLast(new Idle(client, clock.monotonicNanos()));
        return;
      }
    }
    client.close();
  }

  @Override
  public void close() throws IOException {
    List<Idle> all = new ArrayList<>();
    synchronized (this) {
      closed = true;
      idle.values().forEach(all::addAll);
      idle.clear();
    }
    IOException first = null;
    for (Idle i : all) {
      try {
        i.client().close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
