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
 * A single OM as a serving one is wired (its database with the journal, optimistic runner, namespace, directory
 * purger), except that commits wait for the simulation's steps ({@link SteppedCommitter}). Whoever submits a
 * transaction is told ({@code afterSubmit}): a simulated client then hands its turn back until the step ran.
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
   * hears of it.
   */
  private SimulatedOm(OmDb db, SimulatedClock clock, boolean commitAtOnce,
      Consumer<CompletableFuture<Long>> afterSubmit) throws IOException {
    OccMetrics metrics = new OccMetrics();
    this.db = db;
    this.committer = new SteppedCommitter("om-simulation", db, metrics);
    this.runner = new OccRunner(db, new ObjectIds(db), (reads, writes) -> {
      CompletableFuture<Long> done = committer.submit(reads, writes);
      if (commitAtOnce) {
        committer.step(1);
      }
      afterSubmit.accept(done);
      return done;
    }, clock, MAX_RETRIES, metrics);
    this.namespace = new Namespace(runner, BucketLayout.FILE_SYSTEM_OPTIMIZED, ReplicationFactor.THREE);
    this.purger = new DirectoryPurger(runner);
  }

  /** Opens the OM on the database in {@code dir} (replaying its journal, as after a crash). */
  static SimulatedOm open(Path dir, SimulatedClock clock, Consumer<CompletableFuture<Long>> afterSubmit)
      throws IOException {
    return new SimulatedOm(OmDb.open(dir), clock, false, afterSubmit);
  }

  /** An OM whose transactions commit as they are submitted, one at a time: the serial run to compare with. */
  static SimulatedOm serial(Path dir, SimulatedClock clock) throws IOException {
    return new SimulatedOm(OmDb.open(dir), clock, true, done -> { });
  }
}
