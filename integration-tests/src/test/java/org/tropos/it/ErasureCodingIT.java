package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.scm.container.ContainerManager;
import org.tropos.tools.Tropos;

/**
 * Erasure-coded block groups end to end on nine datanodes over two racks: SCM's placement, striped writes straight
 * to the datanodes' block ports, reads verified cell by cell, and the faults a group must survive.
 */
@Timeout(300)
class ErasureCodingIT {
  private static final int MB = 1 << 20;
  private static final int DATANODES = 9;
  /** 4 MB blocks: an rs-3-2-1024k group holds 12 MB, so 30 MB spans three groups. */
  private static final BlockWriteSettings SETTINGS = new BlockWriteSettings(4L * MB, MB, 16 * 1024, 4, 5,
      ReplicationFactor.THREE, Duration.ofSeconds(3));
  private static final Map<String, String> CLUSTER = Map.of("ozone.scm.block.size", "4MB",
      "ozone.scm.container.size", "64MB", "ozone.scm.datanode.pipeline.limit", "1",
      "hdds.scm.replication.thread.interval", "300ms", "hdds.scm.replication.event.timeout", "30s",
      "hdds.scm.replication.event.timeout.datanode.offset", "2s");
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-1024k");
  private static final EcReplication RS_6_3 = EcReplication.parse("rs-6-3-1024k");
  private static final EcReplication XOR_2_1 = EcReplication.parse("xor-2-1-1024k");

  @TempDir
  Path dir;
  private final BlockClients blockClients = new BlockClients();

  @AfterEach
  void closeBlockClients() {
    blockClients.close();
  }

  @Test
  void everyConfigReadsBackBitExactAndEachIndexHoldsItsShare() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, DATANODES, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitAllHealthy();
      for (EcReplication config : List.of(RS_3_2, RS_6_3, XOR_2_1)) {
        for (long size : new long[] {1000, 2L * MB + 7, config.stripeSize(), 30L * MB + 5}) {
          Written written = write(scm, config, size, () -> { });
          assertEquals(size, written.blocks.stream().mapToLong(BlockLocation::length).sum(), config + " " + size);
          assertArrayEquals(written.digest, readDigest(scm, written.blocks), config + ": " + size
              + " bytes read back bit-exact");
          long stored = storedBytes(mini, written.blocks);
          long expected = written.blocks.stream().mapToLong(b -> sharesOf(config, b.length())).sum();
          assertEquals(expected, stored, config + " " + size + ": every index holds exactly its cells");
          if (size == 30L * MB + 5) {
            double perByte = (double) stored / size;
            assertTrue(perByte < (double) config.units() / config.data() + 0.01, config + " stores " + perByte
                + " bytes per byte");
          }
        }
      }
    }
  }

  @Test
  void aDatanodeStoppedMidWriteEndsItsGroupAndReadsRebuildWhatStoppedDatanodesHeld() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, DATANODES, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitAllHealthy();
      List<Integer> stopped = new ArrayList<>();
      Written written = write(scm, RS_3_2, 30L * MB, () -> {
        ContainerRecord open = openEcContainer(mini, RS_3_2);
        int victim = datanodeIndex(mini, Uuids.fromProto(open.getMembers(0)));
        mini.cluster().stopDatanode(victim);
        stopped.add(victim);
      });
      assertEquals(30L * MB, written.blocks.stream().mapToLong(BlockLocation::length).sum());
      assertTrue(written.blocks.size() >= 3, "the group in use ended where its member stopped: " + written.blocks);
      assertArrayEquals(written.digest, readDigest(scm, written.blocks),
          "read back bit-exact, the stopped member's cells rebuilt");

      // With a second datanode stopped, no group has more than parity = 2 indexes gone.
      int second = stopped.get(0) == 1 ? 2 : 1;
      mini.cluster().stopDatanode(second);
      assertArrayEquals(written.digest, readDigest(scm, written.blocks), "read back with two datanodes stopped");
    }
  }

  @Test
  void sixThreeGroupsReadWithThreeIndexesGone() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, DATANODES, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitAllHealthy();
      Written written = write(scm, RS_6_3, 40L * MB + 123, () -> { });
      for (int i : new int[] {1, 4, 8}) {
        mini.cluster().stopDatanode(i);
      }
      assertArrayEquals(written.digest, readDigest(scm, written.blocks), "every group on all nine datanodes,"
          + " three of them stopped");
      mini.cluster().stopDatanode(2);
      Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
          () -> readDigest(scm, written.blocks));
      assertTrue(e.getMessage().contains("cannot be read, only"), e.getMessage());
    }
  }

  /**
   * A member stops: its containers close on the others, the replication manager rebuilds its indexes on other
   * datanodes from the remaining ones, and with parity more datanodes then stopped every key still reads.
   */
  @Test
  void aStoppedMembersIndexesAreRebuiltElsewhereWithoutAnyoneActing() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, DATANODES, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitAllHealthy();
      Written written = write(scm, RS_3_2, 30L * MB + 99, () -> { });
      ContainerRecord open = openEcContainer(mini, RS_3_2);
      UUID lost = Uuids.fromProto(open.getMembers(1));
      mini.cluster().stopDatanode(datanodeIndex(mini, lost));
      Await.until("every index of container " + open.getContainerId() + " on a running datanode",
          Duration.ofSeconds(60), () -> indexHolders(mini, open.getContainerId()),
          holders -> holders.size() == RS_3_2.units() && !holders.containsValue(lost));
      assertEquals(ContainerState.CONTAINER_CLOSED, mini.cluster().scm().containerManager()
          .container(open.getContainerId()).getState());
      String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("http://127.0.0.1:" + mini.cluster().scm().httpPort() + "/prom")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).body();
      assertTrue(metrics.lines().anyMatch(l -> l.matches("scm_replication_ec_rebuilds_sent_total [1-9][0-9]*\\.0")),
          metrics);
      assertAdminShowsEveryIndexOnce(mini, open.getContainerId());
      Map<Integer, UUID> holders = indexHolders(mini, open.getContainerId());
      // Two more members of the container stop, one of them the rebuilt index's: still no more than parity gone.
      mini.cluster().stopDatanode(datanodeIndex(mini, holders.get(2)));
      mini.cluster().stopDatanode(datanodeIndex(mini, holders.get(5)));
      assertArrayEquals(written.digest, readDigest(scm, written.blocks), "read back with the rebuilt index");
    }
  }

  /**
   * A byte flipped in a cell of a closed container's index: the scrubber finds it before any reader, the index is
   * rebuilt on another datanode, the damaged replica is removed, and the groups read back bit-exact.
   */
  @Test
  void aCorruptCellIsFoundByTheScrubberAndItsIndexRebuiltElsewhere() throws Exception {
    Map<String, String> settings = new HashMap<>(CLUSTER);
    settings.putAll(Map.of("ozone.scm.container.size", "8MB", "hdds.container.scrub.data.scan.interval", "300ms",
        "hdds.container.scrub.min.gap", "0", "hdds.container.scrub.volume.bytes.per.second", "200MB"));
    try (MiniCluster mini = new MiniCluster(dir, DATANODES, 1, settings);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitAllHealthy();
      Written written = write(scm, RS_3_2, 30L * MB + 99, () -> { });
      BlockLocation victimBlock = written.blocks.get(0);
      long container = victimBlock.block().getContainerId();
      Await.until("container " + container + " CLOSED on every member", Duration.ofSeconds(60),
          () -> indexHolders(mini, container), holders -> holders.size() == RS_3_2.units());
      UUID damaged = indexHolders(mini, container).get(1);
      DatanodeServer holder = mini.cluster().datanode(datanodeIndex(mini, damaged));
      Path file = holder.store().planRead(victimBlock.block(), 0, 1).file();
      byte[] bytes = Files.readAllBytes(file);
      bytes[bytes.length / 2] ^= 0x40;
      Files.write(file, bytes);

      Await.until("index 1 of container " + container + " rebuilt elsewhere and the damaged replica removed",
          Duration.ofSeconds(90), () -> {
            Map<Integer, UUID> holders = indexHolders(mini, container);
            boolean kept = holder.store().descriptor(container).isPresent();
            return holders.size() == RS_3_2.units() && !kept ? "done" : holders + ", damaged replica kept: " + kept;
          }, "done"::equals);
      assertArrayEquals(written.digest, readDigest(scm, written.blocks), "read back bit-exact");
    }
  }

  /**
   * {@code tropos admin container info} lists the container's replicas by index, each index once and CLOSED, and
   * {@code report} counts the container under its EC class.
   */
  private void assertAdminShowsEveryIndexOnce(MiniCluster mini, long containerId) throws Exception {
    String conf = mini.clientConfDir(dir.resolve("conf")).toString();
    Await.until("SCM's report of every index of container " + containerId, Duration.ofSeconds(30),
        () -> admin("container", "info", Long.toString(containerId), "--conf", conf),
        out -> out.lines()
            .filter(l -> l.startsWith("    ") && l.contains(" HEALTHY ") && l.contains("CONTAINER_CLOSED"))
            .map(l -> l.trim().split("\\s+")[0]).sorted().toList()
            .equals(List.of("1", "2", "3", "4", "5")));
    String info = admin("container", "info", Long.toString(containerId), "--conf", conf);
    assertTrue(info.lines().anyMatch(l -> l.startsWith(containerId + " ") && l.contains("EC/rs-3-2-1024k")), info);
    String report = admin("container", "report", "--conf", conf);
    assertTrue(report.lines().anyMatch(l -> l.trim().startsWith("EC/rs-3-2-1024k ")), report);
  }

  private static String admin(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] command = new String[args.length + 1];
    command[0] = "admin";
    System.arraycopy(args, 0, command, 1, args.length);
    int code = Tropos.run(new PrintWriter(out), new PrintWriter(err), command);
    assertEquals(0, code, err.toString());
    return out.toString();
  }

  /** Per index of the container, a running datanode whose store holds it CLOSED. */
  private static Map<Integer, UUID> indexHolders(MiniCluster mini, long containerId) {
    Map<Integer, UUID> holders = new java.util.TreeMap<>();
    for (int i = 1; i <= DATANODES; i++) {
      DatanodeServer datanode = mini.cluster().datanode(i);
      if (datanode != null && datanode.store() != null) {
        datanode.store().descriptor(containerId).filter(d -> d.getState() == ContainerState.CONTAINER_CLOSED)
            .ifPresent(d -> holders.put(d.getReplicaIndex(), datanode.id().uuid()));
      }
    }
    return holders;
  }

  private record Written(List<BlockLocation> blocks, byte[] digest) {
  }

  private Written write(ScmBlockClient scm, EcReplication config, long size, Runnable midway) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    Random random = new Random(size * 31 + config.hashCode());
    try (BlockWriter writer = blockClients.over(scm).newEcWriter(config, SETTINGS)) {
      long done = 0;
      boolean interfered = false;
      while (done < size) {
        byte[] piece = new byte[(int) Math.min(MB + 333, size - done)];
        random.nextBytes(piece);
        digest.update(piece);
        writer.write(ByteBuffer.wrap(piece));
        done += piece.length;
        if (!interfered && done >= size / 2) {
          midway.run();
          interfered = true;
        }
      }
      return new Written(writer.finish(), digest.digest());
    }
  }

  private byte[] readDigest(ScmBlockClient scm, List<BlockLocation> blocks) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    blockClients.over(scm).read(blocks, digest::update);
    return digest.digest();
  }

  /** Bytes every index of a group of {@code length} bytes holds, parity included. */
  private static long sharesOf(EcReplication config, long length) {
    long total = 0;
    for (int unit = 0; unit < config.units(); unit++) {
      total += config.layout().unitLength(unit, length);
    }
    return total;
  }

  /** Bytes of the groups' blocks on every running datanode's disks, as their records say. */
  private static long storedBytes(MiniCluster mini, List<BlockLocation> blocks) throws Exception {
    long total = 0;
    for (int i = 1; i <= DATANODES; i++) {
      DatanodeServer datanode = mini.cluster().datanode(i);
      for (BlockLocation block : blocks) {
        if (datanode.store().descriptor(block.block().getContainerId()).isPresent()) {
          total += datanode.store().getBlock(block.block()).getLength();
        }
      }
    }
    return total;
  }

  private static ContainerRecord openEcContainer(MiniCluster mini, EcReplication config) {
    ContainerManager containers = mini.cluster().scm().containerManager();
    return containers.ids().stream().map(containers::container)
        .filter(c -> c.hasEc() && c.getEc().equals(config.toProto()) && c.getState() == ContainerState.CONTAINER_OPEN)
        .findFirst().orElseThrow();
  }

  private static int datanodeIndex(MiniCluster mini, UUID id) {
    for (int i = 1; i <= DATANODES; i++) {
      DatanodeServer datanode = mini.cluster().datanode(i);
      if (datanode != null && datanode.id().uuid().equals(id)) {
        return i;
      }
    }
    throw new AssertionError("no running datanode " + id);
  }
}
