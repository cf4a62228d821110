package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockLocation;
import org.tropos.client.BlockWriteSettings;
import org.tropos.client.BlockWriter;
import org.tropos.client.ScmAdminClient;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.hdds.ReplicationFactor;

/** Block streams end to end: SCM allocation, Ratis writes with failover, verified reads with replica failover. */
@Timeout(300)
class BlockStreamsIT {
  private static final int MB = 1 << 20;
  /** 64 MB blocks so that 300 MB crosses several; 1 MB chunks, committed every 4. */
  private static final BlockWriteSettings SETTINGS = new BlockWriteSettings(64L * MB, MB, 16 * 1024,
      4, 5, ReplicationFactor.THREE, Duration.ofSeconds(3));
  private static final Map<String, String> CLUSTER = Map.of("ozone.scm.datanode.pipeline.limit", "2",
      "ozone.scm.block.size", "64MB", "ozone.scm.container.size", "256MB");

  @TempDir
  Path dir;
  /** Shared by the writers of a test, as a process shares them; closed after each test. */
  private final BlockClients blockClients = new BlockClients();

  @org.junit.jupiter.api.AfterEach
  void closeBlockClients() {
    blockClients.close();
  }

  /** Deterministic bytes, generated in pieces so 300 MB never sits in memory. */
  private static final class Source {
    private final Random random;
    private final MessageDigest digest;

    Source(long seed) throws Exception {
      random = new Random(seed);
      digest = MessageDigest.getInstance("SHA-256");
    }

    ByteBuffer next(int size) {
      byte[] piece = new byte[size];
      random.nextBytes(piece);
      digest.update(piece);
      return ByteBuffer.wrap(piece);
    }
  }

  private List<BlockLocation> write(ScmBlockClient scm, Source source, long size, Runnable midway)
      throws Exception {
    try (BlockWriter writer = blockClients.over(scm).newWriter(SETTINGS)) {
      long done = 0;
      boolean interfered = false;
      while (done < size) {
        int n = (int) Math.min(3 * MB + 17, size - done);
        writer.write(source.next(n));
        done += n;
        if (!interfered && done >= size / 2) {
          midway.run();
          interfered = true;
        }
      }
      return writer.finish();
    }
  }

  private byte[] readDigest(ScmBlockClient scm, List<BlockLocation> blocks) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    long[] total = {0};
    blockClients.over(scm).read(blocks, verified -> {
      total[0] += verified.remaining();
      digest.update(verified);
    });
    return digest.digest();
  }

  private static void awaitPipelines(MiniCluster mini, int count) throws Exception {
    try (ScmAdminClient admin = new ScmAdminClient(mini.scmClientAddress())) {
      Await.until(count + " OPEN pipelines", MiniCluster.WAIT, () -> admin.listPipelines(PipelineState.OPEN),
          ps -> ps.size() >= count && ps.stream().allMatch(p -> p.hasLeader()));
    }
  }

  @Test
  void smallOddAndMultiBlockObjectsReadBackBitExact() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      awaitPipelines(mini, 2);
      for (long size : new long[] {1024, 4L * MB + 1, 300L * MB}) {
        Source source = new Source(size);
        List<BlockLocation> blocks = write(scm, source, size, () -> { });
        assertEquals(size, blocks.stream().mapToLong(BlockLocation::length).sum());
        assertArrayEquals(source.digest.digest(), readDigest(scm, blocks), size + " bytes read back bit-exact");
        if (size > 64L * MB) {
          assertTrue(blocks.size() >= 5, "300 MB in 64 MB blocks: " + blocks);
        }
      }
    }
  }

  @Test
  void aDatanodeKilledMidWriteCostsNothingAcknowledged() throws Exception {
    Map<String, String> settings = Map.of("ozone.scm.datanode.pipeline.limit", "1", "ozone.scm.block.size", "64MB");
    try (MiniCluster mini = new MiniCluster(dir, 6, 1, settings);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      awaitPipelines(mini, 2);
      Source source = new Source(42);
      int[] killed = {0};
      List<BlockLocation> blocks = write(scm, source, 48L * MB, () -> {
        // Kill a member of a pipeline the writer is using: whichever holds the first block's container.
        killed[0] = memberOf(mini, scm);
        mini.cluster().stopDatanode(killed[0]);
      });
      assertArrayEquals(source.digest.digest(), readDigest(scm, blocks), "read back bit-exact after the kill");
    }
  }

  private static int memberOf(MiniCluster mini, ScmBlockClient scm) {
    try {
      long container = 1;
      UUID member = org.tropos.common.util.Uuids.fromProto(
          scm.containers(List.of(container), "").get(0).getReplicas(0).getUuid());
      for (int i = 1; i <= mini.cluster().datanodeCount(); i++) {
        DatanodeServer dn = mini.cluster().datanode(i);
        if (dn != null && dn.id().uuid().equals(member)) {
          return i;
        }
      }
      throw new AssertionError("no running member of container 1");
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aCorruptReplicaIsReadAroundAndReportedToScm() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      awaitPipelines(mini, 1);
      Source source = new Source(7);
      List<BlockLocation> blocks = write(scm, source, 2L * MB, () -> { });
      BlockLocation first = blocks.get(0);
      UUID nearest = org.tropos.common.util.Uuids.fromProto(scm.containers(
          List.of(first.block().getContainerId()), "127.0.0.1").get(0).getReplicas(0).getUuid());
      DatanodeServer victim = null;
      for (int i = 1; i <= 3; i++) {
        if (mini.cluster().datanode(i).id().uuid().equals(nearest)) {
          victim = mini.cluster().datanode(i);
        }
      }
      Path file = MiniCluster.blockFile(victim, first.block(), first.length());
      try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
        raw.seek(MB + 3);
        int b = raw.read();
        raw.seek(MB + 3);
        raw.write(b ^ 0x40);
      }
      assertArrayEquals(source.digest.digest(), readDigest(scm, blocks), "the right bytes from another replica");
      assertEquals(List.of(nearest), mini.cluster().scm().containerManager()
          .badReplicas(first.block().getContainerId()), "SCM recorded the corrupt replica");
    }
  }

  /**
   * The OM keeps container locations for a while, so a reader may be handed a list older than a re-replication:
   * when every listed replica fails, the ones SCM knows now are read.
   */
  @Test
  void aReplicaListOlderThanScmsIsReadAroundWithScmsReplicas() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, CLUSTER);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      awaitPipelines(mini, 1);
      Source source = new Source(11);
      BlockLocation block = write(scm, source, MB + 5, () -> { }).get(0);
      DatanodeDetails real = scm.containers(List.of(block.block().getContainerId()), "127.0.0.1").get(0)
          .getReplicas(0);
      int closedPort;
      try (ServerSocket socket = new ServerSocket(0)) {
        closedPort = socket.getLocalPort();
      }
      DatanodeDetails.Builder gone = real.toBuilder().setUuid(Uuids.toProto(UUID.randomUUID())).clearPorts();
      for (Port port : real.getPortsList()) {
        gone.addPorts(port.toBuilder().setValue(closedPort));
      }
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      blockClients.over(scm).read(block, List.of(gone.build()), 0, block.length(),
          digest::update);
      assertArrayEquals(source.digest.digest(), digest.digest(), "read from a replica SCM knows now");
    }
  }
}
