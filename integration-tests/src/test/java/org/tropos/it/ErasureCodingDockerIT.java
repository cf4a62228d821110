package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.proto.scm.DatanodeStatus;
import org.tropos.tools.bench.ReplicationHealth;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Erasure coding under faults on a real engine: the fault suite's secure cluster (three SCMs, three OMs) with eleven
 * datanodes on three racks (4, 4, 3) and an S3 gateway. RS-6-3 and RS-3-2 keys are written through S3 (storage
 * classes mapped to the two configs) and through the Hadoop FileSystem (buckets of each config) while two datanodes
 * on different racks are killed (SIGKILL). No write may fail to its caller, and every acknowledged key must read
 * back bit-exact, first while indexes are missing (degraded reads) and again once every EC container is back to all
 * its indexes, each once on a live datanode and no rack holding more than parity of them, without anyone acting.
 * Eleven datanodes, not nine: RS-6-3 needs nine live ones to hold its nine indexes again after two are lost.
 */
@Timeout(600)
class ErasureCodingDockerIT {
  private static final Duration HEAL = Duration.ofSeconds(240);
  private static final EcReplication RS_6_3 = EcReplication.parse("rs-6-3-1024k");
  private static final EcReplication RS_3_2 = EcReplication.parse("rs-3-2-1024k");
  /** Besides the suites' timings ({@link DockerCluster#SUITE_SETTINGS}). */
  private static final Map<String, String> SETTINGS = Map.of("ozone.scm.datanode.pipeline.limit", "1",
      "ozone.s3g.storage.classes", "STANDARD_IA=EC/" + RS_6_3 + ",ONEZONE_IA=EC/" + RS_3_2);
  private static final List<String> RACKS = List.of("/rack1", "/rack1", "/rack1", "/rack1", "/rack2", "/rack2",
      "/rack2", "/rack2", "/rack3", "/rack3", "/rack3");
  private static final int MB = 1 << 20;

  private static DockerCluster cluster;
  private static TroposClient client;
  private static ScmAdminClient admin;
  private static S3Client s3;
  private static FileSystem fs;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = DockerCluster.forSuite("erasure-coding fault suite", "docker-logs-ec", RACKS, SETTINGS);
    URI endpoint = cluster.startS3Gateway();
    admin = new ScmAdminClient(cluster.scmClientAddresses(), cluster.transport());
    Await.until("eleven datanodes HEALTHY and serving", Duration.ofSeconds(180), () -> {
      try {
        return admin.listDatanodes(NodeState.HEALTHY).stream().filter(DatanodeStatus::getServing).count();
      } catch (ScmException e) {
        return -1L;
      }
    }, n -> n == RACKS.size());
    client = cluster.servingClient();
    client.createVolume(VolumeInfo.newBuilder().setName("erasure").setOwner("root").build());
    client.createBucket(BucketInfo.newBuilder().setVolume("erasure").setName("wide").setEc(RS_6_3.toProto()).build());
    client.createBucket(BucketInfo.newBuilder().setVolume("erasure").setName("narrow").setEc(RS_3_2.toProto()).build());
    org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration(false);
    cluster.clientConfig().explicitValues().forEach(hadoop::set);
    hadoop.set("fs.tropos.impl", "org.tropos.client.hadoop.TroposFileSystem");
    fs = FileSystem.newInstance(URI.create("tropos://omservice/"), hadoop);
    s3 = S3Cluster.clientOf(endpoint, "root", client.getS3Secret("root", true).getSecret());
    Await.until("the S3 gateway to serve", Duration.ofSeconds(120), () -> {
      try {
        s3.createBucket(b -> b.bucket("cold"));
        return "ready";
      } catch (RuntimeException e) {
        return e.toString();
      }
    }, "ready"::equals);
  }

  @AfterAll
  static void stopCluster() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {s3, fs, client, admin, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  @Test
  void twoDatanodesKilledWhileS3AndTheFileSystemWriteLoseNoKeyAndEveryIndexComesBack() throws Exception {
    List<KeyLoad> loads = List.of(
        new KeyLoad("s3-wide-", s3Store(StorageClass.STANDARD_IA), MB / 2, 8 * MB),
        new KeyLoad("s3-narrow-", s3Store(StorageClass.ONEZONE_IA), MB / 2, 5 * MB),
        new KeyLoad("fs-wide-", fsStore("wide"), MB / 2, 8 * MB),
        new KeyLoad("fs-narrow-", fsStore("narrow"), MB / 2, 5 * MB));
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> writers = loads.stream().map(load -> load.writeUntil(stop)).toList();
    Thread.sleep(20_000);
    List<String> victims = victims();
    int before = loads.stream().mapToInt(KeyLoad::acknowledgedCount).sum();
    victims.forEach(cluster::kill);
    Thread.sleep(40_000);
    stop.set(true);
    for (Thread writer : writers) {
      writer.join();
    }
    report("killed " + victims, loads);
    assertTrue(loads.stream().mapToInt(KeyLoad::acknowledgedCount).sum() > before,
        "writes were acknowledged after the kills");
    for (KeyLoad load : loads) {
      assertTrue(load.acknowledgedCount() > 0, "every writer had keys acknowledged");
      assertEquals(0, load.failedWrites(), "no write failed to the caller: a group losing a node ends, the next"
          + " goes elsewhere");
      assertEquals(List.of(), load.readAll(), "every acknowledged key reads back bit-exact with indexes missing");
    }
    assertTrue(ecContainers() > 0, "erasure-coded containers were written");
    Await.until("every container closed and healed: each EC index once on a live datanode", HEAL,
        () -> ReplicationHealth.problems(admin), List::isEmpty);
    report("healed", loads);
    for (KeyLoad load : loads) {
      assertEquals(List.of(), load.readAll(), "every acknowledged key reads back bit-exact once healed");
    }
  }

  /**
   * Two datanodes on different racks, each the one of its rack holding the most EC replicas: losing them must not
   * leave too few racks to hold every index again under the rack rule.
   */
  private static List<String> victims() throws Exception {
    Map<String, Integer> held = new HashMap<>();
    Map<String, String> rackOf = new HashMap<>();
    for (ContainerSummary c : admin.listContainers(ContainerState.CONTAINER_STATE_UNSPECIFIED,
        ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED, 0, 100_000)) {
      admin.container(c.getContainerId()).getReplicasList().stream().filter(r -> r.getReplicaIndex() > 0)
          .forEach(r -> {
            held.merge(r.getDatanode().getHostName(), 1, Integer::sum);
            rackOf.put(r.getDatanode().getHostName(), r.getDatanode().getNetworkLocation());
          });
    }
    List<String> victims = new ArrayList<>();
    for (String rack : List.of("/rack1", "/rack2")) {
      victims.add(held.entrySet().stream().filter(e -> rack.equals(rackOf.get(e.getKey())))
          .max(Comparator.comparingInt(Map.Entry<String, Integer>::getValue)).orElseThrow(
              () -> new AssertionError("no EC replica on " + rack + " yet: " + held)).getKey());
    }
    return victims;
  }

  private static long ecContainers() throws Exception {
    return admin.listContainers(ContainerState.CONTAINER_STATE_UNSPECIFIED,
        ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED, 0, 100_000).stream()
        .filter(ContainerSummary::hasEc).count();
  }

  private static KeyLoad.Store s3Store(StorageClass storageClass) {
    return new KeyLoad.Store() {
      @Override
      public void write(String name, byte[] data) {
        s3.putObject(p -> p.bucket("cold").key(name).storageClass(storageClass), RequestBody.fromBytes(data));
      }

      @Override
      public InputStream open(String name) {
        return s3.getObject(g -> g.bucket("cold").key(name));
      }
    };
  }

  private static KeyLoad.Store fsStore(String bucket) {
    return new KeyLoad.Store() {
      @Override
      public void write(String name, byte[] data) throws Exception {
        try (OutputStream out = fs.create(new Path("/erasure/" + bucket + "/" + name))) {
          out.write(data);
        }
      }

      @Override
      public InputStream open(String name) throws Exception {
        return fs.open(new Path("/erasure/" + bucket + "/" + name));
      }
    };
  }

  private static void report(String step, List<KeyLoad> loads) {
    for (KeyLoad load : loads) {
      System.out.printf("erasure-coding fault suite, %s: %d keys acknowledged, %d writes failed to the caller%n",
          step, load.acknowledgedCount(), load.failedWrites());
      load.writeFailures().forEach(f -> System.out.println("  write failed: " + f));
    }
  }
}
