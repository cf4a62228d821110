package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockLocation;
import org.tropos.client.internal.BlockStreamReader;
import org.tropos.client.internal.BlockStreamWriter;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.datanode.DatanodeServer;
import org.tropos.proto.datanode.storage.ContainerDescriptor;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.scm.replication.ContainerView;
import org.tropos.scm.replication.Replica;
import org.tropos.tools.local.LocalCluster;

/**
 * Self-healing on five datanodes over two racks: a stopped datanode's containers are copied back to three
 * healthy replicas on two racks without anyone acting, and so again after a second one stops; every block written
 * reads back bit-exact throughout. Containers are small (4 MB) so there are several to heal.
 */
@Timeout(300)
class ReplicationIT {
  private static final int MB = 1 << 20;
  private static final Duration RECOVERY = Duration.ofSeconds(90);
  private static final BlockStreamWriter.Settings SETTINGS = new BlockStreamWriter.Settings(MB, MB / 4, 16 * 1024,
      4, 5, ReplicationFactor.THREE, Duration.ofSeconds(3));
  private static final Map<String, String> SETTINGS_UNDER_TEST = Map.of(
      "ozone.scm.block.size", "1MB", "ozone.scm.container.size", "4MB",
      "hdds.scm.replication.thread.interval", "300ms",
      "hdds.scm.replication.event.timeout", "20s",
      "hdds.scm.replication.event.timeout.datanode.offset", "2s");

  @TempDir
  Path dir;
  private final PipelineClients pipelines = new PipelineClients();
  private final Map<List<BlockLocation>, byte[]> written = new HashMap<>();

  @AfterEach
  void closePipelineClients() {
    pipelines.close();
  }

  private void write(ScmBlockClient scm, int keys, long seed) throws Exception {
    Random random = new Random(seed);
    for (int k = 0; k < keys; k++) {
      byte[] data = new byte[2 * MB + random.nextInt(MB)];
      random.nextBytes(data);
      try (BlockStreamWriter writer = new BlockStreamWriter(scm, pipelines, SETTINGS)) {
        writer.write(ByteBuffer.wrap(data));
        written.put(writer.finish(), data);
      }
    }
  }

  private void readEverything(ScmBlockClient scm) throws Exception {
    for (Map.Entry<List<BlockLocation>, byte[]> key : written.entrySet()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new BlockStreamReader(scm, "127.0.0.1").read(key.getKey(), verified -> {
        byte[] bytes = new byte[verified.remaining()];
        verified.get(bytes);
        out.writeBytes(bytes);
      });
      assertArrayEquals(key.getValue(), out.toByteArray(), "a key written reads back bit-exact");
    }
  }

  /** What keeps a closed container from being three healthy replicas on two racks, on running datanodes. */
  private static List<String> problems(MiniCluster mini) {
    LocalCluster cluster = mini.cluster();
    Map<UUID, Integer> running = new HashMap<>();
    for (int i = 1; i <= cluster.datanodeCount(); i++) {
      DatanodeServer dn = cluster.datanode(i);
      if (dn != null) {
        running.put(dn.id().uuid(), i);
      }
    }
    List<String> problems = new ArrayList<>();
    for (ContainerView c : cluster.scm().containerManager().replicationViews()) {
      if (c.state() == ContainerState.CONTAINER_OPEN) {
        continue;
      }
      Set<String> racks = new HashSet<>();
      int healthy = 0;
      int held = 0;
      for (Replica r : c.replicas()) {
        Integer i = running.get(r.node());
        if (i == null) {
          continue;
        }
        held++;
        if (r.state() == ContainerState.CONTAINER_CLOSED && !r.reportedBad()
            && closedOnDisk(cluster.datanode(i), c.id())) {
          healthy++;
          racks.add(LocalCluster.rackOf(i));
        }
      }
      if (c.state() != ContainerState.CONTAINER_CLOSED || healthy != 3 || held != 3 || racks.size() != 2) {
        problems.add("container " + c.id() + " " + c.state() + ": " + healthy + " healthy of " + held
            + " replicas on " + racks);
      }
    }
    return problems;
  }

  private static boolean closedOnDisk(DatanodeServer dn, long container) {
    return dn.store().containers().stream().filter(d -> d.getContainerId() == container)
        .map(ContainerDescriptor::getState).anyMatch(s -> s == ContainerState.CONTAINER_CLOSED);
  }

  private static void awaitHealed(MiniCluster mini) throws Exception {
    Await.until("every closed container at three healthy replicas on two racks", RECOVERY, () -> problems(mini),
        List::isEmpty);
  }

  @Test
  void stoppedDatanodesAreReplacedOneAfterAnotherAndNothingIsLost() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 5, 1, SETTINGS_UNDER_TEST);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitOpenPipelines(3);
      write(scm, 8, 1);
      int containers = mini.cluster().scm().containerManager().replicationViews().size();
      assertTrue(containers >= 4, "enough containers to heal: " + containers);

      assertTrue(mini.cluster().datanode(1).store().containers().size() > 0, "datanode 1 holds replicas to replace");
      mini.cluster().stopDatanode(1);
      awaitHealed(mini);
      readEverything(scm);

      mini.awaitOpenPipelines(1);
      write(scm, 3, 2);
      assertTrue(mini.cluster().datanode(2).store().containers().size() > 0, "datanode 2 holds replicas to replace");
      mini.cluster().stopDatanode(2);
      awaitHealed(mini);
      readEverything(scm);
    }
  }

  @Test
  void aFlippedByteIsFoundByTheScrubberAndRepairedWithoutAReader() throws Exception {
    Map<String, String> settings = new HashMap<>(SETTINGS_UNDER_TEST);
    settings.putAll(Map.of("hdds.container.scrub.data.scan.interval", "300ms", "hdds.container.scrub.min.gap", "0",
        "hdds.container.scrub.volume.bytes.per.second", "200MB"));
    try (MiniCluster mini = new MiniCluster(dir, 3, 1, settings);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitOpenPipelines(1);
      write(scm, 4, 3);
      awaitHealed(mini);
      BlockLocation victim = written.keySet().stream().flatMap(List::stream).filter(b -> mini.cluster().scm()
          .containerManager().container(b.block().getContainerId()).getState() == ContainerState.CONTAINER_CLOSED)
          .findFirst().orElseThrow();
      Path corrupt = mini.cluster().datanode(1).store().planRead(victim.block(), 0, 1).file();
      Path sound = mini.cluster().datanode(2).store().planRead(victim.block(), 0, 1).file();
      byte[] good = Files.readAllBytes(sound);
      byte[] bad = good.clone();
      bad[bad.length / 2] ^= 0x40;
      Files.write(corrupt, bad);

      Await.until("datanode 1's replica of container " + victim.block().getContainerId() + " replaced", RECOVERY,
          () -> {
            try {
              return Arrays.equals(good, Files.readAllBytes(
                  mini.cluster().datanode(1).store().planRead(victim.block(), 0, 1).file()));
            } catch (DatanodeException | IOException e) {
              return false;
            }
          }, replaced -> replaced);
      awaitHealed(mini);
      readEverything(scm);
    }
  }
}
