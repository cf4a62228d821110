package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.BlockLocation;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.proto.hdds.ContainerState;

/**
 * Self-healing on five datanodes over two racks: a stopped datanode's containers are copied back to three
 * healthy replicas on two racks without anyone acting, and so again after a second one stops; every block written
 * reads back bit-exact throughout. Containers are small (4 MB) so there are several to heal.
 */
@Timeout(300)
class ReplicationIT {
  /** Each wait's bound; a test's waits together stay under its timeout, so a failure names what it waited for. */
  private static final Duration RECOVERY = Duration.ofSeconds(80);
  private static final Map<String, String> SETTINGS_UNDER_TEST = Map.of(
      "ozone.scm.block.size", "1MB", "ozone.scm.container.size", "4MB",
      "hdds.scm.replication.thread.interval", "300ms",
      "hdds.scm.replication.event.timeout", "20s",
      "hdds.scm.replication.event.timeout.datanode.offset", "2s");

  @TempDir
  Path dir;
  private final WrittenBlocks written = new WrittenBlocks();

  @AfterEach
  void closePipelineClients() {
    written.close();
  }

  @Test
  void stoppedDatanodesAreReplacedOneAfterAnotherAndNothingIsLost() throws Exception {
    try (MiniCluster mini = new MiniCluster(dir, 5, 1, SETTINGS_UNDER_TEST);
        ScmBlockClient scm = new ScmBlockClient(mini.scmBlockAddress())) {
      mini.awaitOpenPipelines(3);
      written.write(scm, 8, 1);
      int containers = mini.cluster().scm().containerManager().replicationViews().size();
      assertTrue(containers >= 4, "enough containers to heal: " + containers);

      assertTrue(mini.cluster().datanode(1).store().containers().size() > 0, "datanode 1 holds replicas to replace");
      mini.cluster().stopDatanode(1);
      ReplicaChecks.awaitHealed(mini, RECOVERY);
      written.readAll(scm);
      String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + mini.cluster().scm().httpPort() + "/prom")).build(), HttpResponse.BodyHandlers.ofString()).body();
      assertTrue(metrics.lines().anyMatch(l -> l.matches("scm_replication_copies_sent_total [1-9][0-9]*\\.0")), metrics);
      assertTrue(metrics.contains("scm_datanodes{state=\"DEAD\"} 1.0"), metrics);

      mini.awaitOpenPipelines(1);
      written.write(scm, 3, 2);
      assertTrue(mini.cluster().datanode(2).store().containers().size() > 0, "datanode 2 holds replicas to replace");
      mini.cluster().stopDatanode(2);
      ReplicaChecks.awaitHealed(mini, RECOVERY);
      written.readAll(scm);
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
      written.write(scm, 4, 3);
      ReplicaChecks.awaitHealed(mini, RECOVERY);
      BlockLocation victim = written.blocks().stream().filter(b -> mini.cluster().scm()
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
      ReplicaChecks.awaitHealed(mini, RECOVERY);
      written.readAll(scm);
    }
  }
}
