package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.client.TroposClient;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;

/**
 * A cluster keeps memory in proportion to what it stores, not to how long it has run or how much it was asked to
 * do. SCM, the OM, three datanodes and the writing client share this JVM; what they keep is measured by the
 * JVM's class histogram of live objects, and a failure lists the classes that grew.
 */
@Timeout(600)
class HeapRetentionIT {
  private static final int KB = 1024;
  /**
   * Ratis's segments and snapshot interval are small here so that what its log keeps in memory (a few segments'
   * entries, an index of the entries since the last purge) settles within a warm-up; its retry cache forgets within
   * a second. Otherwise they hold the last minutes' requests, which is bounded but would count as kept here.
   */
  private static final Map<String, String> SMALL_RATIS_MEMORY = Map.of(
      "hdds.ratis.raft.server.log.segment.size.max", "64KB", "hdds.ratis.raft.server.log.preallocated.size", "64KB",
      "hdds.ratis.raft.server.retrycache.expirytime", "1s", "hdds.ratis.snapshot.threshold", "500",
      "hdds.ratis.raft.server.log.purge.gap", "256",
      // The histograms' full collections and four writers on a small machine delayed a heartbeat past the mini
      // cluster's one second: the node went STALE and took the only pipeline with it. No node fails here.
      "ozone.scm.stale.node.interval", "30s", "ozone.scm.dead.node.interval", "60s");
  /**
   * 1 MB containers of 1 MB blocks, into which writers ask for 64 KB: a container then has no room for a whole
   * block after its first allocation and closes (the smallest containers SCM allows).
   */
  private static final Map<String, String> SMALL_CONTAINERS = with(SMALL_RATIS_MEMORY,
      Map.of("ozone.scm.datanode.pipeline.limit", "1", "ozone.scm.block.size", "1MB",
          "ozone.scm.container.size", "1MB"));
  private static final BlockWriteSettings ONE_SMALL_BLOCK = new BlockWriteSettings(64 * KB, 64 * KB, 16 * KB, 4, 5,
      ReplicationFactor.THREE, Duration.ofSeconds(10));
  /**
   * What SCM and three datanodes may keep per container: its record, three replicas' reports in SCM, and each
   * replica's descriptor on its datanode (about 4 KB measured). 100,000 containers then take at most 1 GB across
   * a cluster, a fifth of it in SCM.
   */
  private static final long BYTES_PER_CONTAINER = 10 * KB;
  /** What heartbeats, writes and deletions may leave behind once a cluster is warm: measurement noise only. */
  private static final long FLAT = 2L << 20;
  private static final Duration HEARTBEATS = Duration.ofSeconds(15);
  /** Enough that a few hundred bytes kept per write (as Ratis's client once did per watch) exceed {@link #FLAT}. */
  private static final int OVERWRITES = 8000;
  /**
   * Rounds of {@link #OVERWRITES} (or of {@link #HEARTBEATS}) of which one must keep no more than {@link #FLAT}. What
   * is kept per write or heartbeat grows in every round; a bounded structure that fills slowly, or a class first
   * used late, does not: Ratis's timers keep up to 1,028 samples each, and those timed once per batched log flush or
   * segment roll may fill only after the warm-up (20,000 samples, 2 MB).
   */
  private static final int ROUNDS = 3;
  private static final int WRITERS = 4;
  /** How many written containers may wait to be closed before the writers pause. */
  private static final int BACKLOG = 100;

  @TempDir
  Path dir;
  private final BlockClients blockClients = new BlockClients();

  @AfterEach
  void closeBlockClients() {
    blockClients.close();
  }

  /** Thousands of containers closed, then heartbeats that report them all (every 100 ms) and change nothing. */
  @Test
  void closedContainersKeepStateInProportionToTheirNumberAndHeartbeatsAddNone() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, SMALL_CONTAINERS);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitOpenPipelines(1);
      writeUntilClosed(mini, scm, 200);
      Snapshot warm = Snapshot.take(containers(mini));
      writeUntilClosed(mini, scm, closed(mini) + 2000);
      awaitClosingSettled(mini);
      long added = containers(mini) - warm.containers;
      long perContainer = warm.keptSince() / added;
      System.out.printf("%,d containers more keep %,d B each%n", added, perContainer);
      assertTrue(perContainer <= BYTES_PER_CONTAINER, () -> String.format("%,d B per container (%,d containers"
          + " more); grown:%n%s", perContainer, added, warm.growth()));

      for (int round = 1; ; round++) {
        Snapshot full = Snapshot.take(containers(mini));
        Thread.sleep(HEARTBEATS.toMillis()); // a few heartbeats of the real daemons' own schedules
        long kept = full.keptSince();
        System.out.printf("round %d: %s of heartbeats over %,d containers kept %,d B%n", round, HEARTBEATS,
            full.containers, kept);
        if (kept <= FLAT) {
          break;
        }
        String growth = full.growth();
        System.out.printf("grown:%n%s%n", growth);
        assertTrue(round < ROUNDS, () -> String.format("%s of heartbeats over %,d containers kept more than %,d B in"
            + " each of %d rounds, %,d B in the last; grown in it:%n%s", HEARTBEATS, full.containers, FLAT, ROUNDS,
            kept, growth));
      }
    }
  }

  /**
   * Thousands of small keys written over the same names in the same containers: nothing new is stored (each
   * overwrite's old blocks are deleted), so nothing may be kept once the cluster's bounded structures are full.
   */
  @Test
  void overwritingKeysRetainsNothing() throws Exception {
    Map<String, String> settings = with(SMALL_RATIS_MEMORY, Map.of("ozone.scm.datanode.pipeline.limit", "1",
        "hdds.scm.block.deleting.service.interval", "500ms"));
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, settings);
        TroposClient client = TroposClient.create(mini.clientConfig().with(settings))) {
      mini.awaitOpenPipelines(1);
      client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
      client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("bucket").build());
      overwrite(client, 3000);
      for (int round = 1; ; round++) {
        Snapshot warm = Snapshot.take(containers(mini));
        overwrite(client, OVERWRITES);
        long kept = warm.keptSince();
        System.out.printf("round %d: %,d overwrites kept %,d B%n", round, OVERWRITES, kept);
        if (kept <= FLAT) {
          break;
        }
        String growth = warm.growth();
        System.out.printf("grown:%n%s%n", growth);
        assertTrue(round < ROUNDS, () -> String.format("%,d overwrites kept more than %,d B in each of %d rounds,"
            + " %,d B in the last; grown in it:%n%s", OVERWRITES, FLAT, ROUNDS, kept, growth));
      }
    }
  }

  /** Writes {@code count} 4 KB keys over 100 names from {@link #WRITERS} threads, then lets the cluster settle. */
  private static void overwrite(TroposClient client, int count) throws Exception {
    AtomicLong next = new AtomicLong();
    runWriters(() -> {
      for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
        try (OutputStream out = client.createKey("vol", "bucket", "k" + i % 100, 4 * KB)) {
          out.write(new byte[4 * KB]);
        }
      }
    });
    Thread.sleep(3000); // deletions sent and acknowledged, Ratis's retry cache expired
  }

  /** Writes one-block objects until SCM counts {@code target} closed containers. */
  private void writeUntilClosed(MiniCluster mini, ScmBlockClient scm, long target) throws Exception {
    runWriters(() -> {
      do {
        for (int i = 0; i < 20; i++) {
          try (BlockWriter writer = blockClients.over(scm).newWriter(ONE_SMALL_BLOCK)) {
            writer.write(ByteBuffer.allocate(16 * KB));
            writer.finish();
          }
        }
        while (closingWritten(mini) > BACKLOG) {
          Thread.sleep(100); // on a slow machine closing lags behind writing: let it catch up
        }
      } while (closed(mini) < target);
    });
  }

  /** A writer's loop; it may throw. */
  @FunctionalInterface
  private interface Writer {
    void run() throws Exception;
  }

  /** Runs {@code writer} on {@link #WRITERS} threads until each returns; the first failure fails the test. */
  private static void runWriters(Writer writer) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        running.add(pool.submit(() -> {
          writer.run();
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Waits until every container that was written is CLOSED; a few, leased ahead by the writers and never written,
   * stay CLOSING without replicas.
   */
  private static void awaitClosingSettled(MiniCluster mini) throws Exception {
    Await.until("written containers to close", Duration.ofMinutes(5), () -> closingWritten(mini), n -> n == 0);
  }

  /** Containers CLOSING of which a replica was reported: written, and not closed on every member yet. */
  private static long closingWritten(MiniCluster mini) {
    var containers = mini.cluster().scm().containerManager();
    return containers.ids().stream().map(containers::container)
        .filter(c -> c.getState() == ContainerState.CONTAINER_CLOSING && c.getReplicaReported()).count();
  }

  private static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
    Map<String, String> both = new HashMap<>(a);
    both.putAll(b);
    return Map.copyOf(both);
  }

  private static long containers(MiniCluster mini) {
    return mini.cluster().scm().containerManager().ids().size();
  }

  private static long closed(MiniCluster mini) {
    var containers = mini.cluster().scm().containerManager();
    return containers.ids().stream()
        .filter(id -> containers.container(id).getState() == ContainerState.CONTAINER_CLOSED).count();
  }

  /** What the JVM keeps alive at one point, with the number of containers SCM knows then. */
  private record Snapshot(RetainedHeap heap, long containers) {
    /**
     * The least of a few readings a second apart, as something held for a moment (megabytes of int arrays once, a
     * Ratis log cache) is let go while what is kept for good stays; the same goes for the readings it is compared
     * with.
     */
    static Snapshot take(long containers) throws Exception {
      return new Snapshot(leastOfReadings(), containers);
    }

    /** Bytes kept since this snapshot. */
    long keptSince() throws Exception {
      return leastOfReadings().bytes() - heap.bytes();
    }

    private static RetainedHeap leastOfReadings() throws Exception {
      RetainedHeap least = RetainedHeap.now();
      for (int reading = 1; reading < 3; reading++) {
        Thread.sleep(1000); // the JVM's own threads settle between readings of the retained heap
        RetainedHeap next = RetainedHeap.now();
        least = next.bytes() < least.bytes() ? next : least;
      }
      return least;
    }

    /** The classes that grew most since this snapshot. */
    String growth() {
      try {
        return RetainedHeap.now().growthSince(heap, 25);
      } catch (Exception e) {
        return "(no histogram: " + e + ")";
      }
    }
  }
}
