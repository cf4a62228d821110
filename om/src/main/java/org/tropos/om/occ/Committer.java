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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.db.ManagedRocksDb.ReadView;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.StaleWriteSetException;
import org.tropos.proto.om.OmResult;

/**
 * The one serial step of the OM: a single thread takes the transactions waiting in a bounded queue (producers
 * block when it is full), validates them in order ({@link BatchValidator}) and applies the accepted ones as one
 * batch with one sync (group commit), through a {@link BatchLog}. A transaction's future completes with its id
 * once its changes are durable, or fails with {@link Conflict} (to be re-run) or an {@link OmException}.
 *
 * <p>Thread-safety: {@link #submit} from any thread; everything else on the committer thread.
 */
public final class Committer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Committer.class);
  private static final int QUEUE_LIMIT = 4096;
  private static final long POLL_MS = 50;

  private record Pending(ReadSet reads, WriteSet writes, CompletableFuture<Long> done) {
  }

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
    List<Pending> batch = new ArrayList<>(batchMax);
    while (running || !queue.isEmpty()) {
      try {
        Pending first = queue.poll(POLL_MS, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, batchMax - 1);
        commit(batch);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (RuntimeException e) {
        LOG.error("{}: commit failed unexpectedly", name, e);
        batch.forEach(p -> p.done().completeExceptionally(new OmException(OmResult.INTERNAL_ERROR,
            "commit failed: " + e)));
      } finally {
        batch.clear();
      }
    }
  }

  private void commit(List<Pending> batch) {
    long[] txIds = new long[batch.size()];
    Exception[] refused = new Exception[batch.size()];
    BatchValidator validator;
    // The transaction first, then the view: the view is at least that state. With OM HA another OM's batch may be
    // applied meanwhile; this batch then no longer follows the namespace and is refused whole, to be re-run.
    long base = db.lastTxId();
    try (ReadView latest = db.latest()) {
      validator = new BatchValidator(latest, base);
      for (int i = 0; i < batch.size(); i++) {
        try {
          txIds[i] = validator.accept(batch.get(i).reads(), batch.get(i).writes());
        } catch (Conflict | OmException e) {
          refused[i] = e;
        }
      }
    }
    metrics.batch(batch.size());
    IOException failed = apply(base, validator);
    for (int i = 0; i < batch.size(); i++) {
      CompletableFuture<Long> done = batch.get(i).done();
      if (refused[i] != null) {
        done.completeExceptionally(refused[i]);
      } else if (failed instanceof StaleWriteSetException) {
        done.completeExceptionally(new Conflict("the namespace moved on before this batch was applied"));
      } else if (failed instanceof BatchLog.UnavailableException) {
        done.completeExceptionally(new OmException(OmResult.OM_NOT_READY, failed.getMessage()));
      } else if (failed != null) {
        done.completeExceptionally(new OmException(OmResult.INTERNAL_ERROR, "commit failed: " + failed.getMessage()));
      } else {
        done.complete(txIds[i]);
      }
    }
  }

  private IOException apply(long base, BatchValidator validator) {
    if (validator.changes().isEmpty()) {
      return null;
    }
    try {
      log.append(OmDb.writeSet(base, validator.changes(), validator.lastTxId()));
      return null;
    } catch (StaleWriteSetException e) {
      LOG.debug("{}: a batch of {} changes is re-run: {}", name, validator.changes().size(), e.getMessage());
      return e;
    } catch (BatchLog.UnavailableException e) {
      LOG.warn("{}: a batch of {} changes was not taken: {}", name, validator.changes().size(), e.getMessage());
      return e;
    } catch (IOException e) {
      LOG.error("{}: cannot write a batch of {} changes", name, validator.changes().size(), e);
      return e;
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
