package org.tropos.om.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.tropos.common.util.NamedThreadFactory;

/**
 * The OM's simulated clients: each runs its requests on a thread of its own, since a request waits for its commit
 * inside the OM's code, but only while it has the turn. The simulation hands the turn to one client, which runs
 * until its request waits for a commit step ({@link #park}) or is answered, and hands it back. One thing runs at a
 * time, in the order the seed chooses, so every run of a seed interleaves alike.
 *
 * <p>Not thread-safe beyond that hand-over: the simulation's thread calls everything but {@link #park}.
 */
final class Clients implements AutoCloseable {
  /** A turn that takes this long means a client is stuck (a deadlock in what it runs). */
  private static final long TURN_TIMEOUT_SECONDS = 60;
  private static final ThreadLocal<Client> CURRENT = new ThreadLocal<>();

  private final Semaphore handedBack = new Semaphore(0);
  private final List<Client> all = new ArrayList<>();

  Clients(int count) {
    NamedThreadFactory threads = new NamedThreadFactory("om-simulation-client", true);
    for (int i = 0; i < count; i++) {
      Client client = new Client(i);
      all.add(client);
      threads.newThread(client::loop).start();
    }
  }

  List<Client> all() {
    return all;
  }

  /** The client whose thread this is; empty on the simulation's own thread. */
  static Client current() {
    return CURRENT.get();
  }

  /** One simulated client. */
  final class Client {
    final int id;
    private final Semaphore go = new Semaphore(0);
    private Callable<String> request;
    private String answer;
    private boolean answered;
    private CompletableFuture<Long> awaited;
    private boolean stopping;

    private Client(int id) {
      this.id = id;
    }

    /** Whether it has no request under way. */
    boolean idle() {
      return request == null;
    }

    /** Whether its request waits for a commit step that has run. */
    boolean resumable() {
      return awaited != null && awaited.isDone();
    }

    /** The commit its request waits for, or null. */
    CompletableFuture<Long> awaited() {
      return awaited;
    }

    /** Starts {@code next} and runs it until it waits for a commit or is answered. */
    void start(Callable<String> next) {
      request = next;
      turn();
    }

    /** Runs its request on until it waits for a commit again or is answered. */
    void resume() {
      if (awaited != null && !awaited.isDone()) {
        throw new IllegalStateException("client " + id + " resumed before the step its request waits for");
      }
      turn();
    }

    /** The request's answer once it has one (and the client is idle again); null while it runs. */
    String takeAnswer() {
      if (!answered) {
        return null;
      }
      answered = false;
      request = null;
      return answer;
    }

    /** On the client's thread: waits for {@code commit}'s step, handing the turn back meanwhile. */
    void park(CompletableFuture<Long> commit) {
      awaited = commit;
      handedBack.release();
      go.acquireUninterruptibly();
      awaited = null;
    }

    private void turn() {
      go.release();
      try {
        if (!handedBack.tryAcquire(TURN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          throw new IllegalStateException("client " + id + " kept its turn for " + TURN_TIMEOUT_SECONDS + " s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while client " + id + " had its turn", e);
      }
    }

    private void loop() {
      CURRENT.set(this);
      while (true) {
        go.acquireUninterruptibly();
        if (stopping) {
          handedBack.release();
          return;
        }
        try {
          answer = request.call();
        } catch (Exception | Error e) {
          answer = "threw " + e;
        }
        answered = true;
        handedBack.release();
      }
    }
  }

  /** Ends the clients' threads; a request still waiting for a commit (a run cut short) is failed first. */
  @Override
  public void close() {
    for (Client client : all) {
      if (client.awaited != null) {
        client.awaited.completeExceptionally(new IllegalStateException("the simulation ended"));
        client.turn();
      }
      client.stopping = true;
      client.turn();
    }
  }
}
