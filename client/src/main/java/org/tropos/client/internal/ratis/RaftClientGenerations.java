package org.tropos.client.internal.ratis;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.RaftClientReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one pipeline's watch requests through a Ratis client of their own, replaced by a new one after every
 * {@code watchesPerClient} watches. Ratis's client (3.3) remembers each request it sends to the leader until a
 * write's reply names it ({@code RaftClientImpl.RepliedCallIds}); a watch never gets such a reply, so a client
 * living as long as its pipeline kept about 170 bytes per watch for good: 75,000 entries after 83,000 small PUTs
 * through one S3 gateway. A replaced client is closed once its last watch is answered, so what it remembered goes
 * with it.
 *
 * <p>Thread-safety: the current client and the counts are guarded by this object's monitor.
 */
final class WatchClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WatchClients.class);

  private final Supplier<RaftClient> newClient;
  private final int watchesPerClient;
  private Generation current;
  private boolean closed;

  /** @param newClient makes a client of the pipeline's group, called again for each replacement */
  WatchClients(Supplier<RaftClient> newClient, int watchesPerClient) {
    this.newClient = newClient;
    this.watchesPerClient = watchesPerClient;
  }

  /** Sends a watch of {@code logIndex} at {@code level}. */
  CompletableFuture<RaftClientReply> watch(long logIndex, ReplicationLevel level) {
    Generation generation = take();
    CompletableFuture<RaftClientReply> reply;
    try {
      reply = generation.client.async().watch(logIndex, level);
    } catch (RuntimeException e) {
      release(generation);
      throw e;
    }
    return reply.whenComplete((r, e) -> release(generation));
  }

  private synchronized Generation take() {
    if (closed) {
      throw new IllegalStateException("the pipeline's client is closed");
    }
    if (current == null || current.sent == watchesPerClient) {
      if (current != null) {
        retire(current);
      }
      current = new Generation(newClient.get());
    }
    current.sent++;
    current.inFlight++;
    return current;
  }

  private void release(Generation generation) {
    synchronized (this) {
      generation.inFlight--;
      if (generation.retired) {
        retire(generation);
      }
    }
  }

  /**
   * Under the monitor: marks {@code generation} replaced and closes its client once no watch waits on it. The
   * client is closed on another thread: this may be the thread completing a reply, and closing a client waits for
   * its gRPC executors to stop.
   */
  private void retire(Generation generation) {
    generation.retired = true;
    if (!generation.clientClosed && generation.inFlight == 0) {
      generation.clientClosed = true;
      CompletableFuture.runAsync(() -> closeQuietly(generation.client));
    }
  }

  /** Closes the current client at once (its watches fail, and their writers fall back as for any failed watch). */
  @Override
  public void close() {
    Generation last;
    synchronized (this) {
      closed = true;
      last = current;
      current = null;
      if (last == null || last.clientClosed) {
        return;
      }
      last.retired = true;
      last.clientClosed = true;
    }
    closeQuietly(last.client);
  }

  private static void closeQuietly(RaftClient client) {
    try {
      client.close();
    } catch (IOException e) {
      LOG.debug("Closing a watch client failed: {}", e.toString());
    }
  }

  /** One client and its counts; guarded by the enclosing object's monitor. */
  private static final class Generation {
    final RaftClient client;
    int sent;
    int inFlight;
    boolean retired;
    boolean clientClosed;

    Generation(RaftClient client) {
      this.client = client;
    }
  }
}
