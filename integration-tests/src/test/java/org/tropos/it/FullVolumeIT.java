package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.ScmAdminClient;
import org.tropos.datanode.volume.StorageDirectory;
import org.tropos.proto.hdds.PipelineState;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A cluster whose data volumes fill up, each datanode's on a small tmpfs of its own (mounting one needs root:
 * the test is skipped where it cannot). The PUT that no longer fits is answered 507 InsufficientStorage at once,
 * where it once hung for good: followers without room failed to append the entry and the leader resent it forever.
 * Every object acknowledged before stays readable, and SCM closes the full datanodes' pipelines.
 */
class FullVolumeIT {
  private static final int VOLUME_MB = 48;
  private static final int OBJECT_BYTES = 4 << 20;
  /** The most objects that could fit: a PUT past it must have failed. */
  private static final int MOST_OBJECTS = VOLUME_MB * (1 << 20) / OBJECT_BYTES;
  /** How long the refused PUT may take: the writer's retries, with no Raft timeout waited out. */
  private static final Duration REFUSED_WITHIN = Duration.ofSeconds(45);

  private final List<Path> mounts = new ArrayList<>();

  @AfterEach
  void unmount() throws Exception {
    for (Path mount : mounts) {
      run("umount", "-l", mount.toString());
    }
  }

  /** The leader refuses writes while the space kept back still holds what the followers accepted. */
  @Test
  void withSpaceKeptBackAPutThatNoLongerFitsIsRefused(@TempDir Path dir) throws Exception {
    fillAndCheck(dir, "16MB", Integer.MAX_VALUE, (s3, acknowledged) -> { });
  }

  /**
   * With nothing kept back the followers run out of room mid-entry (the case that hung: the chunks now stop at the
   * block database's room, which the followers meet too): their reports of no room close the pipelines, which fails
   * the stuck write, and the writer finds no room anywhere.
   */
  @Test
  void withNothingKeptBackAPutThatNoLongerFitsIsRefused(@TempDir Path dir) throws Exception {
    fillAndCheck(dir, "0", Integer.MAX_VALUE, (s3, acknowledged) -> { });
  }

  /**
   * Lead 2 of issue 44: deleting objects from volumes filled to the database's room frees their space, with no
   * restart. A block's deletion writes its database first, which a full disk could refuse.
   */
  @Test
  void deletedObjectsFreeAFullVolume(@TempDir Path dir) throws Exception {
    fillAndCheck(dir, "0", Integer.MAX_VALUE, (s3, acknowledged) -> deleteAllAndAwaitFreed(s3, acknowledged));
  }

  /**
   * Something other than chunks fills each volume to its last byte after three objects: the block database gets
   * its reserve back before it writes (closing the containers flushes it), so deleting the objects still frees
   * their space.
   */
  @Test
  void deletedObjectsFreeAVolumeSomethingElseFilled(@TempDir Path dir) throws Exception {
    fillAndCheck(dir, "0", 3, (s3, acknowledged) -> deleteAllAndAwaitFreed(s3, acknowledged));
  }

  private void deleteAllAndAwaitFreed(S3Client s3, Map<String, byte[]> acknowledged) throws Exception {
    // Each datanode holds a replica of every object; it makes its metadata reserve again once the volume has room,
    // and its database grows by the deletions' records (the megabyte allowed).
    assertTrue(acknowledged.size() >= 3, "only " + acknowledged.size() + " objects fitted: deleting them would "
        + "not free more than the reserve made again");
    Map<Path, Long> usedWhenFull = new LinkedHashMap<>();
    for (Path mount : mounts) {
      usedWhenFull.put(mount, used(mount));
    }
    for (String key : acknowledged.keySet()) {
      s3.deleteObject(b -> b.bucket("full").key(key));
    }
    long freed = (long) acknowledged.size() * OBJECT_BYTES - StorageDirectory.METADATA_ROOM - (1 << 20);
    for (Path mount : mounts) {
      Await.until(freed + " bytes freed on " + mount + " (" + usedWhenFull.get(mount) + " used when full)",
          MiniCluster.WAIT, () -> used(mount), used -> used <= usedWhenFull.get(mount) - freed);
    }
  }

  /** Writes {@code file} until the file system has no byte left. */
  private static void fillUp(Path file) throws IOException {
    byte[] piece = new byte[64 << 10];
    try (OutputStream out = Files.newOutputStream(file)) {
      while (true) {
        out.write(piece);
      }
    } catch (IOException e) {
      if (Files.getFileStore(file.getParent()).getUsableSpace() > 0) {
        throw e;
      }
    }
  }

  /** What a full cluster is checked for once the PUT that no longer fits was refused. */
  private interface WhenFull {
    void check(S3Client s3, Map<String, byte[]> acknowledged) throws Exception;
  }

  private static long used(Path mount) throws IOException {
    FileStore store = Files.getFileStore(mount);
    return store.getTotalSpace() - store.getUsableSpace();
  }

  /**
   * Writes objects until one is refused, checks what a full cluster must do, then {@code whenFull}.
   *
   * @param othersFillAfter after how many objects something else fills every volume to its last byte
   */
  private void fillAndCheck(Path dir, String keptBack, int othersFillAfter, WhenFull whenFull) throws Exception {
    Path clusterDir = dir.resolve("cluster");
    for (int i = 1; i <= 3; i++) {
      Path data = Files.createDirectories(clusterDir.resolve("dn" + i).resolve("data1"));
      assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + VOLUME_MB + "m", "tmpfs", data.toString()) == 0,
          "cannot mount a tmpfs here (needs root)");
      mounts.add(data);
    }
    Map<String, String> settings = Map.of("hdds.datanode.volume.min.free.space", keptBack,
        // Bounds a write stuck on a pipeline; the refusal must come well before it.
        "hdds.ratis.client.request.write.timeout", "60s", "hdds.ratis.client.request.watch.timeout", "60s",
        // Deleted objects' blocks reach SCM and the datanodes within a second.
        "ozone.directory.deleting.service.interval", "500ms", "hdds.scm.block.deleting.service.interval", "500ms");
    try (S3Cluster cluster = new S3Cluster(clusterDir, settings);
        S3Client s3 = cluster.client("dora");
        ScmAdminClient scm = new ScmAdminClient(cluster.mini().scmClientAddress())) {
      s3.createBucket(b -> b.bucket("full"));
      Map<String, byte[]> acknowledged = new LinkedHashMap<>();
      Random random = new Random(42);
      S3Exception refused = null;
      long refusedMillis = 0;
      while (refused == null) {
        assertTrue(acknowledged.size() <= MOST_OBJECTS, acknowledged.size() + " objects of " + OBJECT_BYTES
            + " bytes acknowledged on volumes of " + VOLUME_MB + " MB");
        if (acknowledged.size() == othersFillAfter) {
          for (Path mount : mounts) {
            fillUp(mount.resolve("not-tropos"));
          }
        }
        byte[] data = new byte[OBJECT_BYTES];
        random.nextBytes(data);
        String key = "object-" + acknowledged.size();
        long start = System.nanoTime();
        try {
          s3.putObject(b -> b.bucket("full").key(key), RequestBody.fromBytes(data));
          acknowledged.put(key, data);
        } catch (S3Exception e) {
          refused = e;
          refusedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
      }
      assertEquals(507, refused.statusCode(), refused.toString());
      assertEquals("InsufficientStorage", refused.awsErrorDetails().errorCode());
      assertTrue(refusedMillis < REFUSED_WITHIN.toMillis(), "the refusal took " + refusedMillis + " ms");
      assertTrue(acknowledged.size() >= 2, "only " + acknowledged.size() + " objects fitted before the refusal");
      for (Map.Entry<String, byte[]> object : acknowledged.entrySet()) {
        assertArrayEquals(object.getValue(), s3.getObjectAsBytes(b -> b.bucket("full").key(object.getKey()))
            .asByteArray(), object.getKey());
      }
      Await.until("no OPEN pipeline on the full datanodes", MiniCluster.WAIT,
          () -> scm.listPipelines(PipelineState.OPEN), List::isEmpty);
      S3Exception again = assertThrows(S3Exception.class,
          () -> s3.putObject(b -> b.bucket("full").key("one-more"), RequestBody.fromString("small")));
      assertEquals(507, again.statusCode(), again.toString());
      whenFull.check(s3, acknowledged);
    }
  }

  private static int run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getInputStream().transferTo(OutputStream.nullOutputStream());
    return process.waitFor();
  }
}
