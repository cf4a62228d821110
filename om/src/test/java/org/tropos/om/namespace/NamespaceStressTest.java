package org.tropos.om.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;

/**
 * Many threads create, rename and delete in overlapping directories; afterwards the namespace must be consistent
 * (every row reachable, no cycle, no orphan, usage matching the rows). The seed of each thread is printed on
 * failure.
 */
class NamespaceStressTest {
  private static final int THREADS = 8;
  private static final int OPS_PER_THREAD = 400;

  @TempDir
  Path dir;

  @Test
  void concurrentCreatesRenamesAndDeletesLeaveAConsistentNamespace() throws Exception {
    long seed = new Random().nextLong();
    AtomicLong committed = new AtomicLong();
    try (OmTestStore om = new OmTestStore(dir)) {
      om.namespace.createVolume(VolumeInfo.newBuilder().setName("vol1").build());
      om.namespace.createBucket(BucketInfo.newBuilder().setVolume("vol1").setName("fso").build());
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          Random random = new Random(seed + t);
          done.add(pool.submit(() -> {
            for (int i = 0; i < OPS_PER_THREAD; i++) {
              if (step(om.namespace, random)) {
                committed.incrementAndGet();
              }
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"), "seed " + seed);
      new DirectoryPurger(om.runner).purgeAll();
      assertEquals(List.of(), NamespaceCheck.check(om.runner, "vol1", "fso"), "after the purge, seed " + seed);
      assertTrue(committed.get() > THREADS * OPS_PER_THREAD / 10, "too few operations succeeded: " + committed);
      assertTrue(om.metrics.conflicts() > 0, "overlapping work should have conflicted at least once");
    }
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  private static String path(Random random) {
    StringBuilder p = new StringBuilder("d" + random.nextInt(3));
    for (int depth = random.nextInt(3); depth > 0; depth--) {
      p.append("/d").append(random.nextInt(3));
    }
    return p.toString();
  }

  /** One random operation; true if it changed the namespace. Operating errors are expected and ignored. */
  private static boolean step(Namespace ns, Random random) throws OmException {
    try {
      switch (random.nextInt(5)) {
        case 0 -> NamespaceTest.put(ns, "fso", path(random) + "/f" + random.nextInt(4), 1 + random.nextInt(9), true);
        case 1 -> ns.createDirectory("vol1", "fso", path(random), "");
        case 2 -> ns.renameKey("vol1", "fso", path(random), path(random));
        case 3 -> ns.deleteKey("vol1", "fso", path(random), random.nextBoolean());
        default -> ns.renameKey("vol1", "fso", path(random) + "/f" + random.nextInt(4), path(random) + "/g");
      }
      return true;
    } catch (OmException e) {
      if (e.result() == OmResult.INTERNAL_ERROR) {
        throw e;
      }
      return false;
    }
  }
}
