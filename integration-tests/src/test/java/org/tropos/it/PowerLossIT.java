package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.tools.bench.S3Side;
import org.tropos.tools.bench.TroposLocalProcess;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Power cuts under writes: {@code tropos local} (SCM, the OM and three datanodes, every byte of theirs on one LazyFS
 * mount) takes PUTs from two writers when the power goes: the process is killed and everything it wrote but did
 * not sync is dropped. Restarted on what is left, the cluster must serve every object it acknowledged, whole, and
 * any object it was still writing either whole or not at all. Three cuts, each after more writes. Needs LazyFS
 * ({@code .ci/lazyfs}), root and /dev/fuse: skipped without them.
 */
@Timeout(900)
class PowerLossIT {
  private static final int CUTS = 3;
  /** Objects acknowledged in a round before the power may go; it goes while the next ones are being written. */
  private static final int ACKNOWLEDGED_PER_ROUND = 60;
  private static final int WRITERS = 2;
  /** Sizes from a few bytes to several chunks, so that both the OM's rows and block files are cut part-way. */
  private static final int[] SIZES = {100, 64 << 10, 1 << 20, 5 << 20};
  private static final String BUCKET = "power";
  /** Every write is synced through FUSE to a LazyFS process on two cores: a few objects a second. */
  private static final Duration WRITES_TIMEOUT = Duration.ofMinutes(3);

  /** Kept when the test fails: the cluster's log (cluster.log) and what survived the cuts (lazyfs/lower). */
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  @Test
  void everyAcknowledgedObjectSurvivesPowerCutsDuringWrites() throws Exception {
    Optional<Path> lazyFs = LazyFs.available();
    assumeTrue(lazyFs.isPresent(), "LazyFS is not built here (.ci/lazyfs), or this is not root with /dev/fuse");
    Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    Map<String, Long> attempted = new ConcurrentHashMap<>();
    try (LazyFs fs = LazyFs.mount(dir.resolve("lazyfs"), lazyFs.get(), "1gb")) {
      Path data = fs.mountPoint().resolve("cluster");
      List<Long> dropped = new ArrayList<>();
      for (int cut = 0; cut < CUTS; cut++) {
        TroposLocalProcess local = start(data);
        try {
          S3Side side = local.awaitReady();
          try (S3Client s3 = side.client()) {
            if (cut == 0) {
              s3.createBucket(b -> b.bucket(BUCKET));
            }
            checkObjects(s3, acknowledged, attempted);
            writeUntilPowerCut(s3, local, cut, acknowledged, attempted);
          }
        } finally {
          local.kill();
        }
        dropped.add(fs.cutPower());
      }
      System.out.printf("PowerLossIT: %d power cuts, %d objects acknowledged (%d written), unsynced bytes dropped at"
          + " each cut: %s%n", CUTS, acknowledged.size(), attempted.size(), dropped);
      // Nothing dropped would mean the cuts tested nothing: every write was already synced.
      assertTrue(dropped.stream().allMatch(bytes -> bytes > 0), "unsynced bytes dropped at each cut: " + dropped);
      try (TroposLocalProcess local = start(data); S3Client s3 = local.awaitReady().client()) {
        checkObjects(s3, acknowledged, attempted);
      }
    }
  }

  /**
   * {@code tropos local} on {@code data} as a newcomer gets it (chunks of 64 KB or more written with O_DIRECT), in
   * the launcher's default heap, its output appended to cluster.log.
   */
  private TroposLocalProcess start(Path data) throws IOException {
    return new TroposLocalProcess(data, dir.resolve("cluster.log"), 3, "512m", Map.of());
  }

  /**
   * Writes objects from {@link #WRITERS} threads; once {@link #ACKNOWLEDGED_PER_ROUND} more are acknowledged, kills
   * the cluster while the writers are still at it.
   */
  private static void writeUntilPowerCut(S3Client s3, TroposLocalProcess local, int cut,
      Map<String, Long> acknowledged, Map<String, Long> attempted) throws Exception {
    int target = acknowledged.size() + ACKNOWLEDGED_PER_ROUND;
    AtomicBoolean powerOn = new AtomicBoolean(true);
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        running.add(writers.submit(() -> {
          for (int i = 0; powerOn.get(); i++) {
            String key = "cut" + cut + "/writer" + writer + "/object-" + i;
            long seed = key.hashCode();
            attempted.put(key, seed);
            try {
              s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(content(seed)));
            } catch (RuntimeException e) {
              if (powerOn.get()) {
                throw e;
              }
              return null; // the power went under this PUT: it was not acknowledged
            }
            if (powerOn.get()) {
              acknowledged.put(key, seed);
            }
          }
          return null;
        }));
      }
      Await.until(target + " acknowledged objects", WRITES_TIMEOUT, () -> {
        for (Future<?> writer : running) {
          if (writer.isDone()) {
            writer.get(); // a writer that failed with the power still on fails the test with its error
          }
        }
        return acknowledged.size();
      }, n -> n >= target);
      powerOn.set(false);
      local.kill();
      for (Future<?> writer : running) {
        writer.get();
      }
    } finally {
      writers.shutdownNow();
      writers.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  /**
   * Every acknowledged object reads back whole; every other object listed was being written at a cut, and is whole
   * too (a PUT is all or nothing).
   */
  private static void checkObjects(S3Client s3, Map<String, Long> acknowledged, Map<String, Long> attempted) {
    for (Map.Entry<String, Long> object : acknowledged.entrySet()) {
      assertArrayEquals(content(object.getValue()), s3.getObjectAsBytes(b -> b.bucket(BUCKET)
          .key(object.getKey())).asByteArray(), object.getKey() + " was acknowledged");
    }
    for (S3Object listed : s3.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents()) {
      Long seed = attempted.get(listed.key());
      assertTrue(seed != null, listed.key() + " was never written");
      assertEquals(content(seed).length, listed.size(), listed.key());
      if (!acknowledged.containsKey(listed.key())) {
        assertArrayEquals(content(seed), s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(listed.key()))
            .asByteArray(), listed.key() + ", written at a cut, reads back");
      }
    }
  }

  /** An object's bytes, from its seed: a size of {@link #SIZES} and random content. */
  private static byte[] content(long seed) {
    Random random = new Random(seed);
    byte[] bytes = new byte[SIZES[random.nextInt(SIZES.length)]];
    random.nextBytes(bytes);
    return bytes;
  }
}
