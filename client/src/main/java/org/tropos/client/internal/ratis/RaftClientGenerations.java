package org.tropos.client.internal.ratis;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.RaftClientReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pipeline's Ratis clients of a kind, each in turn: requests go through the current client, which is replaced
 * by a new one after {@code requestsPerClient} requests, or (if {@code replacedOnFailure}) as soon as a request
 * through it fails. A replaced client is closed once its last request is answered.
 *
 * <p>Watches rotate by count: Ratis's client (3.3) remembers each request it sends to the leader until a write's
 * reply names it ({@code RaftClientImpl.RepliedCallIds}); a watch never gets such a reply, so a client living as
 * long as its pipeline kept about 170 bytes per watch for good (75,000 entries after 83,000 small PUTs through
 * one S3 gateway). Writes rotate on failure: a write that fails for good (retries spent, or a datanode's refusal,
 * which is not retried) fails every later write of its client, whose ordered sliding window stays failed
 * ({@code SlidingWindow.Client.fail}); without a new client the pipeline would take no write from this process
 * again.
 *
 * <p>Thread-safety: the current client and the counts are guarded by this object's monitor.
 */
final class RaftClientGenerations implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RaftClientGenerations.class);

  private final Supplier<RaftClient> newClient;
  private final long requestsPerClient;
  private final boolean replacedOnFailure;
  private Generation current;
  private boolean closed;

  /** @param newClient makes a client of the pipeline's group, called again for each replacement */
  RaftClientGenerations(Supplier<RaftClient> newClient, long requestsPerClient, boolean replacedOnFailure) {
    this.newClient = newClient;
    this.requestsPerClient = requestsPerClient;
    this.replacedOnFailure = replacedOnFailure;
  }

  /** Sends {@code request} through the current client. */
  CompletableFuture<RaftClientReply> send(Function<RaftClient, CompletableFuture<RaftClientReply>> request) {
    Generation generation = take();
    CompletableFuture<RaftClientReply> reply;
    try {
      reply = request.apply(generation.client);
    } catch (RuntimeException e) {
      release(generation, true);
      throw e;
    }
    return reply.whenComplete((r, e) -> release(generation, e != null));
  }

  private synchronized Generation take() {
    if (closed) {
      throw new IllegalStateException("the pipeline's client is closed");
    }
    if (current == null || current.sent == requestsPerClient) {
      if (current != null) {
        retire(current);
      }
      current = new Generation(newClient.get());
    }
    current.sent++;
    current.inFlight++;
    return current;
  }

  private void release(Generation generation, boolean failed) {
    synchronized (this) {
      generation.inFlight--;
      if (failed && replacedOnFailure && generation == current) {
        current = null;
        retire(generation);
      } else if (generation.retired) {
        retire(generation);
      }
    }
  }
  /**
   * Under the monitor: marks {@code generation} replaced and closes its client once no request waits on it. The
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

  /** Closes the current client at once (its requests fail, as any failed request does). */
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
      LOG.debug("Closing a pipeline client failed: {}", e.toString());
    }
  }

  /** One client and its counts; guarded by the enclosing object's monitor. */
  private static final class Generation {
    final RaftClient client;
    long sent;
    int inFlight;
    boolean retired;
    boolean clientClosed;

    Generation(RaftClient client) {
      this.client = client;
    }
  }
}
