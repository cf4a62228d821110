package org.tropos.om.simulation;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.tropos.common.simulation.SimulatedClock;
import org.tropos.om.db.OmDb;
import org.tropos.om.namespace.DirectoryPurger;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.occ.OccMetrics;
import org.tropos.om.occ.OccRunner;
import org.tropos.om.occ.SteppedCommitter;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;

/**
 * An OM as a serving one is wired (its database, optimistic runner, namespace, directory purger), except that
 * commits wait for the simulation's steps ({@link SteppedCommitter}): a single OM's batches go through its
 * database's journal, an HA leader's through the simulated Raft log, with the object ids of its term and its
 * client calls recorded for retries after a failover. Whoever submits a transaction is told ({@code afterSubmit}):
 * a simulated client then hands its turn back until the step ran.
 */
final class SimulatedOm {
  /** Conflicts a request may meet before it gives up (a serving OM's default). */
  private static final int MAX_RETRIES = 20;

  final OmDb db;
  final SteppedCommitter committer;
  final OccRunner runner;
  final Namespace namespace;
  final DirectoryPurger purger;

  /**
   * {@code commitAtOnce}: every transaction is committed alone as it is submitted, before {@code afterSubmit}
   * hears of it (only with the journal, which applies a batch within its step).
   */
  private SimulatedOm(OmDb db, SteppedCommitter committer, ObjectIds ids, boolean recordCalls, SimulatedClock clock,
      boolean commitAtOnce, Consumer<CompletableFuture<Long>> afterSubmit) {
    OccMetrics metrics = new OccMetrics();
    this.db = db;
    this.committer = committer;
    this.runner = new OccRunner(db, ids, (reads, writes) -> {
      CompletableFuture<Long> done = committer.submit(reads, writes);
      if (commitAtOnce) {
        committer.step(1);
      }
      afterSubmit.accept(done);
      return done;
    }, clock, MAX_RETRIES, metrics, recordCalls);
    this.namespace = new Namespace(runner, BucketLayout.FILE_SYSTEM_OPTIMIZED, ReplicationFactor.THREE);
    this.purger = new DirectoryPurger(runner);
  }

  /** A single OM on {@code db}. */
  static SimulatedOm single(OmDb db, SimulatedClock clock, Consumer<CompletableFuture<Long>> afterSubmit)
      throws IOException {
    return new SimulatedOm(db, new SteppedCommitter("om-simulation", db, new OccMetrics()), new ObjectIds(db),
        false, clock, false, afterSubmit);
  }

  /**
   * The leader of an OM HA group in {@code term}, on {@code db} caught up with {@code log}; {@code recordCalls}
   * false plants a flaw (a retried call runs again).
   */
  static SimulatedOm leader(OmDb db, SimulatedRaftLog log, long term, boolean recordCalls, SimulatedClock clock,
      Consumer<CompletableFuture<Long>> afterSubmit) throws IOException {
    return new SimulatedOm(db, new SteppedCommitter("om-simulation", db, log, new OccMetrics()),
        ObjectIds.forTerm(db, term), recordCalls, clock, false, afterSubmit);
  }

  /** An OM whose transactions commit as they are submitted, one at a time: the serial run to compare with. */
  static SimulatedOm serial(Path dir, SimulatedClock clock) throws IOException {
    OmDb db = OmDb.open(dir);
    return new SimulatedOm(db, new SteppedCommitter("om-simulation", db, new OccMetrics()), new ObjectIds(db),
        false, clock, true, done -> { });
  }
}
