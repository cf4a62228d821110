package org.tropos.om.occ;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;
import org.tropos.proto.om.OmResult;

/**
 * The one serial step of the OM: a single thread takes the transactions waiting in a bounded queue (producers
 * block when it is full), validates them in order ({@link BatchValidator}) and applies the accepted ones as one
 * batch with one sync (group commit), through a {@link BatchLog} ({@link CommitPipeline}: with OM HA several
 * batches are in flight at once). A transaction's future completes with its id once its changes are durable, or
 * fails with {@link Conflict} (to be re-run) or an {@link OmException}.
 *
 * <p>Thread-safety: {@link #submit} from any thread; everything else on the committer thread.
 */
public final class Committer implements CommitQueue, AutoCloseable {
  private static final int QUEUE_LIMIT = 4096;
  private static final long POLL_MS = 50;

  /** A marker the log's completions put in the queue, so that a committer waiting for work sees them at once. */
  private static final Pending WAKE_UP = new Pending(null, null, new CompletableFuture<>());

  private final String name;
  private final OmDb db;
  private final BatchLog log;
  private final int batchMax;
  private final OccMetrics metrics;
  private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(QUEUE_LIMIT);
  private final LifeCycle lifeCycle;
  private volatile boolean running;
  private ExecutorService thread;

  /** A committer whose batches go to the database's own journal (a single OM). */
  public Committer(String name, OmDb db, int batchMax, OccMetrics metrics) {
    this(name, db, db::append, batchMax, metrics);
  }

  /**
   * @param log where validated batches go to be made durable and applied: the database's journal, or (OM HA) the
   *     Raft log, whose state machine applies them on every OM
   */
  public Committer(String name, OmDb db, BatchLog log, int batchMax, OccMetrics metrics) {
    this.name = name;
    this.db = db;
    this.log = log;
    this.batchMax = batchMax;
    this.metrics = metrics;
    this.lifeCycle = new LifeCycle(name + "-committer");
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    running = true;
    thread = Threads.boundedPool(name + "-committer", 1, 1);
    thread.execute(this::run);
    lifeCycle.startEnds();
  }

  /** Queues a transaction for validation and commit; blocks while the queue is full. */
  @Override
  public CompletableFuture<Long> submit(ReadSet reads, WriteSet writes) throws InterruptedException {
    CompletableFuture<Long> done = new CompletableFuture<>();
    if (!running) {
      done.completeExceptionally(new OmException(OmResult.OM_NOT_READY, "the OM is stopping"));
      return done;
    }
    queue.put(new Pending(reads, writes, done));
    return done;
  }

  private void run() {
    CommitPipeline pipeline = new CommitPipeline(name, db, log, metrics, () -> queue.offer(WAKE_UP));
    try {
      while (running || !queue.isEmpty() || !pipeline.idle()) {
        pipeline.finishApplied();
        if (!pipeline.canTakeBatch()) {
          pipeline.awaitOldest(POLL_MS);
          continue;
        }
        // Batches in flight wake this poll when they complete (WAKE_UP), so new work is never held back by them.
        Pending first = queue.poll(POLL_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        List<Pending> batch = new ArrayList<>(batchMax);
        batch.add(first);
        queue.drainTo(batch, batchMax - 1);
        batch.removeIf(p -> p == WAKE_UP);
        if (batch.isEmpty()) {
          continue;
        }
        pipeline.send(batch);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      pipeline.close();
    }
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    running = false;
    if (thread != null) {
      Threads.shutdown(thread, Duration.ofSeconds(10));
    }
    Pending left;
    while ((left = queue.poll()) != null) {
      left.done().completeExceptionally(new OmException(OmResult.OM_NOT_READY, "the OM stopped"));
    }
    lifeCycle.closeEnds();
  }
}
