package org.tropos.om.occ;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.JournalEntry;

/**
 * Batches in flight at once (OM HA's Raft log): a second batch is validated and sent while the first is still
 * out, chained on it; when the first fails, the one sent after it is refused as stale and its transaction re-runs
 * on the database as it is, while the first's caller is told to retry. The log here is held by the test, which
 * applies an entry to the real database when it lets it complete.
 */
class CommitPipelineTest {
  /** A log whose entries complete when the test says; completing one applies it to the database as Raft would. */
  private static final class HeldLog implements BatchLog {
    private final OmDb db;
    final List<JournalEntry> entries = new CopyOnWriteArrayList<>();
    private final List<CompletableFuture<Void>> futures = new CopyOnWriteArrayList<>();

    HeldLog(OmDb db) {
      this.db = db;
    }

    @Override
    public void append(JournalEntry entry) {
      throw new UnsupportedOperationException("the committer appends asynchronously");
    }

    @Override
    public CompletableFuture<Void> appendAsync(JournalEntry entry) {
      CompletableFuture<Void> applied = new CompletableFuture<>();
      entries.add(entry);
      futures.add(applied);
      return applied;
    }

    @Override
    public int maxInFlight() {
      return 4;
    }

    void apply(int i) {
      try {
        db.append(entries.get(i));
        futures.get(i).complete(null);
      } catch (IOException e) {
        futures.get(i).completeExceptionally(e);
      }
    }

    void fail(int i) {
      futures.get(i).completeExceptionally(new UnavailableException("no majority", null));
    }

    void awaitEntries(int count) throws Exception {
      Threads.awaitCondition(count + " entries sent", Duration.ofSeconds(10), Duration.ofMillis(5),
          () -> entries.size() >= count);
    }
  }

  private static VolumeInfo volume(String name) {
    return VolumeInfo.newBuilder().setName(name).setOwner("test").build();
  }

  @Test
  void aBatchIsSentWhileTheOneBeforeIsInFlightAndAFailureReRunsTheOnesAfterIt(@TempDir Path dir) throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(2);
    try (OmDb db = OmDb.open(dir.resolve("om.db"))) {
      HeldLog log = new HeldLog(db);
      OccMetrics metrics = new OccMetrics();
      try (Committer committer = new Committer("test", db, log, 16, metrics)) {
        committer.start();
        Namespace namespace = new Namespace(new OccRunner(db, ObjectIds.forTerm(db, 1), committer,
            SystemClock.INSTANCE, 5, metrics), BucketLayout.OBJECT_STORE, ReplicationFactor.THREE);

        Future<VolumeInfo> first = callers.submit(() -> namespace.createVolume(volume("first")));
        log.awaitEntries(1);
        Future<VolumeInfo> second = callers.submit(() -> namespace.createVolume(volume("second")));
        log.awaitEntries(2);
        assertEquals(log.entries.get(0).getLastTxId(), log.entries.get(1).getPreviousTxId(),
            "the second batch follows the first, still in flight");
        log.apply(0);
        log.apply(1);
        assertEquals("first", first.get().getName());
        assertEquals("second", second.get().getName());

        Future<VolumeInfo> lost = callers.submit(() -> namespace.createVolume(volume("lost")));
        log.awaitEntries(3);
        Future<VolumeInfo> rerun = callers.submit(() -> namespace.createVolume(volume("rerun")));
        log.awaitEntries(4);
        log.fail(2);
        log.apply(3);
        ExecutionException notTaken = assertThrows(ExecutionException.class, lost::get);
        assertEquals(OmResult.OM_NOT_READY, ((OmException) notTaken.getCause()).result());
        log.awaitEntries(5);
        assertEquals(db.lastTxId(), log.entries.get(4).getPreviousTxId(), "the re-run follows the database");
        log.apply(4);
        assertEquals("rerun", rerun.get().getName());
        assertTrue(metrics.conflicts() >= 1, "the stale batch's transaction re-ran");
        assertEquals("rerun", namespace.getVolume("rerun").getName());
        assertThrows(OmException.class, () -> namespace.getVolume("lost"));
      }
    } finally {
      callers.shutdownNow();
    }
  }
}
