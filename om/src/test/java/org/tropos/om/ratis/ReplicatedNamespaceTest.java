package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.util.SystemClock;
import org.tropos.om.db.OmDb;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.occ.Committer;
import org.tropos.om.occ.ObjectIds;
import org.tropos.om.occ.OccMetrics;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.VolumeInfo;

/**
 * The namespace over a real Raft group: two OMs execute and validate requests at the same time, each on its own
 * database, and commit through the group. A batch one OM validated while the other's was being applied no longer
 * follows the namespace: it is refused alike on every OM and re-run, so every request succeeds exactly once and all
 * three OMs end with the same namespace.
 */
@Timeout(120)
class ReplicatedNamespaceTest {
  private static final int PER_OM = 30;

  @TempDir
  Path dir;

  @Test
  void twoOmsCommittingAtOnceEndWithOneNamespaceOnEveryOm() throws Exception {
    try (OmRaftGroup group = new OmRaftGroup(dir, 3)) {
      List<Committer> committers = new ArrayList<>();
      List<Namespace> namespaces = new ArrayList<>();
      List<OccMetrics> metrics = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          OmDb db = group.dbs.get(i);
          OccMetrics m = new OccMetrics();
          Committer committer = new Committer("om" + i, db, new RatisBatchLog(group.client()), 64, m);
          committer.start();
          committers.add(committer);
          metrics.add(m);
          // Distinct terms stand in for the terms the OMs would each have led in.
          OccRunner runner = new OccRunner(db, ObjectIds.forTerm(db, i + 1), committer, SystemClock.INSTANCE, 100,
              m);
          namespaces.add(new Namespace(runner, BucketLayout.FILE_SYSTEM_OPTIMIZED, ReplicationFactor.THREE));
        }
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        for (int om = 0; om < 2; om++) {
          Namespace ns = namespaces.get(om);
          String prefix = "vol-" + om + "-";
          writers.add(CompletableFuture.runAsync(() -> {
            for (int v = 0; v < PER_OM; v++) {
              try {
                ns.createVolume(VolumeInfo.newBuilder().setName(prefix + v).setOwner("it").build());
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            }
          }));
        }
        CompletableFuture.allOf(writers.toArray(CompletableFuture[]::new)).get();

        long last = group.dbs.get(group.leaderIndex()).lastTxId();
        group.awaitAll(last);
        for (Namespace ns : namespaces) {
          assertEquals(2 * PER_OM, ns.listVolumes("vol-", "", 1000).getVolumesCount(),
              "every OM holds every volume, once");
        }
        System.out.printf("two OMs committing at once: %d + %d batches re-run%n", metrics.get(0).conflicts(),
            metrics.get(1).conflicts());
      } finally {
        for (Committer c : committers) {
          c.close();
        }
      }
    }
  }
}
