package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.tropos.client.ScmAdminClient;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.ScmService;
import org.tropos.common.ratis.GroupRoles;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.SecuritySettings;
import org.tropos.common.security.ServiceRole;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeOperationalState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.ListVolumesRequest;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.OmServiceGrpc;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.scm.ContainerDetails;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.ContainerSummary;
import org.tropos.proto.scm.ScmResult;
import org.tropos.scm.ratis.ScmRaftServer;
import org.tropos.tools.bench.ReplicationHealth;
import org.tropos.proto.scm.DatanodeStatus;

/**
 * The fault suite on a real engine: SCM, an HA service of three OMs and five datanodes on two racks (dn1-dn3 on
 * /rack1, dn4-dn5 on /rack2) as separate processes in containers, the test process writing and reading keys
 * through the Java client. One cluster goes through the faults in order, each step leaving it healed for the next:
 * a flipped byte the scrubber finds before any reader, a decommission under readers, a 60 s partition, a kill -9
 * during writes, a second kill, the OM leader killed during writes. After each: every acknowledged key reads back
 * bit-exact and every closed container has three healthy replicas on two racks, without anyone acting. The cluster
 * runs secure (mutual TLS everywhere, block tokens; {@link DockerCluster}). Skipped, saying why, where no engine
 * runs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(300)
class FaultSuiteDockerIT {
  private static final Duration HEAL = Duration.ofSeconds(180);
  /** Besides the suites' timings ({@link DockerCluster#SUITE_SETTINGS}). */
  private static final Map<String, String> SETTINGS = Map.ofEntries(
      Map.entry("ozone.scm.datanode.pipeline.limit", "2"),
      Map.entry("hdds.container.scrub.metadata.scan.interval", "10s"),
      Map.entry("hdds.container.scrub.data.scan.interval", "10s"),
      Map.entry("hdds.container.scrub.min.gap", "0s"),
      Map.entry("hdds.container.scrub.volume.bytes.per.second", "20MB"));
  private static final List<String> RACKS = List.of("/rack1", "/rack1", "/rack1", "/rack2", "/rack2");

  private static DockerCluster cluster;
  private static TroposClient client;
  private static ScmAdminClient admin;
  private static KeyLoad keys;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = DockerCluster.forSuite("fault suite", "docker-logs", RACKS, SETTINGS);
    admin = new ScmAdminClient(cluster.scmClientAddresses(), cluster.transport());
    Await.until("five HEALTHY datanodes and two OPEN pipelines", Duration.ofSeconds(120), () -> {
      try {
        long healthy = admin.listDatanodes(NodeState.HEALTHY).size();
        long pipelines = admin.listPipelines(PipelineState.OPEN).stream().filter(p -> p.hasLeader()).count();
        return healthy == 5 && pipelines >= 2 ? "ready" : healthy + " healthy, " + pipelines + " open";
      } catch (ScmException e) {
        return e.getMessage();
      }
    }, "ready"::equals);
    client = cluster.servingClient();
    client.createVolume(VolumeInfo.newBuilder().setName("faults").setOwner("it").build());
    client.createBucket(BucketInfo.newBuilder().setVolume("faults").setName("bucket").build());
    keys = new KeyLoad(client, "faults", "bucket");
  }

  @AfterAll
  static void stopCluster() {
    if (client != null) {
      client.close();
    }
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * An outsider on the cluster's network (issue 42's probes): in plaintext no OM or SCM port answers; over TLS
   * without a certificate, whatever user the call names, the OM lists, reads and deletes nothing and SCM
   * decommissions nothing. The bucket is still there and every datanode in service.
   */
  @Test
  @Order(0)
  void anOutsiderWithoutACertificateListsReadsAndChangesNothing() throws Exception {
    Configuration outsider = cluster.clientConfig().with("tropos.security.identity.file", "");
    try (TroposClient nobody = TroposClient.create(outsider, "root")) {
      for (Executable call : List.<Executable>of(() -> nobody.listVolumes(""), () -> nobody.getS3Secret("root",
          false), () -> nobody.deleteBucket("faults", "bucket"))) {
        assertEquals(OmResult.PERMISSION_DENIED, assertThrows(OmException.class, call).result());
      }
    }
    try (ScmAdminClient nobody = new ScmAdminClient(cluster.scmClientAddresses(),
        SecuritySettings.userTransport(outsider))) {
      assertEquals(ScmResult.PERMISSION_DENIED, assertThrows(ScmException.class, () -> nobody.decommission(
          List.of(cluster.address(DockerCluster.datanode(1))))).result());
    }
    ScmService.Node scm = cluster.scmService().nodes().get(0);
    for (HostPort port : List.of(new HostPort(cluster.address(DockerCluster.OMS.get(0)), DockerCluster.OM_PORT),
        scm.client(), new HostPort(scm.host(), scm.blockPort()), new HostPort(scm.host(), scm.datanodePort()))) {
      ManagedChannel plaintext = NettyChannelBuilder.forAddress(port.host(), port.port()).usePlaintext().build();
      try {
        StatusRuntimeException refused = assertThrows(StatusRuntimeException.class, () -> OmServiceGrpc
            .newBlockingStub(plaintext).withDeadlineAfter(10, TimeUnit.SECONDS).listVolumes(
            ListVolumesRequest.getDefaultInstance()));
        assertEquals(Status.Code.UNAVAILABLE, refused.getStatus().getCode(), port + ": " + refused);
      } finally {
        plaintext.shutdownNow();
      }
    }
    assertEquals("bucket", client.getBucket("faults", "bucket").getName());
    assertEquals(5, admin.listDatanodes(NodeState.HEALTHY).stream().filter(d -> d.getOperationalState()
        == NodeOperationalState.IN_SERVICE).count(), "every datanode still in service");
  }

  @Test
  @Order(1)
  void aFlippedByteIsFoundByTheScrubberAndRepairedBeforeAnyClientReadsIt() throws Exception {
    Await.until("four closed containers", Duration.ofSeconds(120), () -> {
      keys.write(10);
      return closedContainers().size();
    }, n -> n >= 4);
    assertEquals(List.of(), keys.writeFailures(), "no write fails on a sound cluster");
    awaitHealed();
    ContainerSummary victim = closedContainers().get(0);
    ContainerDetails before = admin.container(victim.getContainerId());
    String holder = before.getReplicas(0).getDatanode().getHostName();
    String file = cluster.exec(holder, "find /data/disk1 -path '*/" + victim.getContainerId()
        + "/chunks/*.block' -size +1k | sort | head -1").trim();
    assertTrue(file.endsWith(".block"), "a block file of container " + victim.getContainerId() + " on " + holder);
    String sound = sha256(holder, file);
    flipByte(holder, file);
    String damaged = sha256(holder, file);
    assertNotEquals(sound, damaged);

    // Nobody reads: the scrubber must find it, and the replication manager replace it.
    Await.until("container " + victim.getContainerId() + "'s damaged replica on " + holder + " replaced",
        HEAL, () -> {
          String now = cluster.exec(holder, "sha256sum " + file + " 2>/dev/null | cut -c1-64 || true").trim();
          return now.equals(damaged) ? "still damaged" : "gone or sound";
        }, "gone or sound"::equals);
    awaitHealed();
    assertEquals(List.of(), keys.readAll(), "every key reads back bit-exact");
  }

  @Test
  @Order(2)
  void aDecommissionedNodeIsDrainedWhileReadersLoseNothing() throws Exception {
    // Which node holds closed replicas depends on where the earlier writes landed: drain the one holding most.
    String leaving = busiestDatanode();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> readers = List.of(keys.readUntil(stop), keys.readUntil(stop));
    long readsBefore = keys.reads();
    admin.decommission(List.of(leaving));
    Await.until(leaving + " DECOMMISSIONED", HEAL, () -> operationalState(leaving),
        s -> s == NodeOperationalState.DECOMMISSIONED);
    stop.set(true);
    for (Thread t : readers) {
      t.join();
    }
    assertEquals(List.of(), keys.failedReads(), "no read failed during the decommission");
    assertTrue(keys.reads() > readsBefore, "readers ran");
    awaitHealed();

    admin.recommission(List.of(leaving));
    Await.until(leaving + " IN_SERVICE again", HEAL, () -> operationalState(leaving),
        s -> s == NodeOperationalState.IN_SERVICE);
    awaitHealed();
  }

  @Test
  @Order(3)
  void aSixtySecondPartitionLosesNothing() throws Exception {
    String cut = DockerCluster.datanode(3);
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer = keys.writeUntil(stop);
    // Real processes in containers, on their own clocks: the writes run for a while around a partition that
    // lasts sixty seconds of real time (past the time SCM waits before it counts the node DEAD).
    Thread.sleep(3_000);
    cluster.disconnect(cut);
    Thread.sleep(60_000);
    cluster.reconnect(cut);
    Thread.sleep(5_000);
    stop.set(true);
    writer.join();
    report("60 s partition of " + cut);
    Await.until(cut + " HEALTHY again", HEAL, () -> nodeState(cut), s -> s == NodeState.HEALTHY);
    awaitHealed();
    assertEquals(List.of(), keys.readAll(), "every acknowledged key reads back bit-exact");
  }

  @Test
  @Order(4)
  void aDatanodeKilledDuringWritesIsReplacedAndNothingAcknowledgedIsLost() throws Exception {
    killDuringWrites(DockerCluster.datanode(1));
  }

  @Test
  @Order(5)
  void aSecondKillAfterRecoveryLosesNothing() throws Exception {
    killDuringWrites(DockerCluster.datanode(4));
  }

  /**
   * The OM leader killed (-9) while keys are written through the service: the client follows the new leader, no
   * write fails to the caller and every acknowledged key reads back.
   */
  @Test
  @Order(6)
  void theOmLeaderKilledDuringWritesFailsNoWriteAndLosesNothing() throws Exception {
    killLeaderDuringWrites("OM", FaultSuiteDockerIT::omLeader);
  }

  /**
   * The SCM leader killed (-9) while keys are written: another SCM takes over from the replicated database, the
   * datanodes and the OMs follow it, no write fails to the caller and every acknowledged key reads back.
   */
  @Test
  @Order(7)
  void theScmLeaderKilledDuringWritesFailsNoWriteAndLosesNothing() throws Exception {
    int healthy = admin.listDatanodes(NodeState.HEALTHY).size();
    killLeaderDuringWrites("SCM", FaultSuiteDockerIT::scmLeader);
    Await.until("the " + healthy + " live datanodes registered and HEALTHY with the new SCM leader",
        Duration.ofSeconds(60), () -> {
          try {
            return admin.listDatanodes(NodeState.HEALTHY).size();
          } catch (ScmException e) {
            return -1;
          }
        }, n -> n == healthy);
  }

  /** A service's leader (found by {@code leader}) killed during writes: another leads, nothing fails or is lost. */
  private static void killLeaderDuringWrites(String service, Callable<String> leader) throws Exception {
    String killed = leader.call();
    int before = keys.acknowledgedCount();
    long failedBefore = keys.failedWrites();
    AtomicBoolean stop = new AtomicBoolean();
    Thread writer = keys.writeUntil(stop);
    // Real processes in containers: writes run for a while before the kill and through the election after it.
    Thread.sleep(5_000);
    cluster.kill(killed);
    Thread.sleep(15_000);
    stop.set(true);
    writer.join();
    report("kill -9 of the " + service + " leader " + killed);
    assertNotEquals(killed, leader.call(), "another " + service + " leads");
    assertTrue(keys.acknowledgedCount() > before, "writes were acknowledged around the kill");
    assertEquals(failedBefore, keys.failedWrites(), "no write failed to the caller");
    assertEquals(List.of(), keys.readAll(), "every acknowledged key reads back bit-exact");
  }

  /** The node id of the SCM that leads, as the SCMs' Raft members report it. */
  private static String scmLeader() throws Exception {
    String[] leader = {null};
    Await.until("an SCM leader", Duration.ofSeconds(60), () -> {
      leader[0] = GroupRoles.of(ScmRaftServer.KIND, cluster.scmService().id(), cluster.scmService().raftPeers(),
          cluster.transport(), ServiceRole.SCM)
          .stream().filter(r -> r.role().equals("LEADER")).map(GroupRoles.MemberRole::node).findFirst()
          .orElse(null);
      return leader[0];
    }, java.util.Objects::nonNull);
    return leader[0];
  }

  /** The node id of the OM that leads, as the OMs themselves report it. */
  private static String omLeader() throws Exception {
    String[] leader = {null};
    Await.until("an OM leader", Duration.ofSeconds(60), () -> {
      leader[0] = client.omRoles(new java.util.HashMap<>()).values().stream()
          .filter(r -> r.getRole().equals("LEADER")).map(r -> r.getNodeId()).findFirst().orElse(null);
      return leader[0];
    }, java.util.Objects::nonNull);
    return leader[0];
  }

  private static void killDuringWrites(String victim) throws Exception {
    assertTrue(holdsReplicas(victim), victim + " holds replicas");
    AtomicBoolean stop = new AtomicBoolean();
    int before = keys.acknowledgedCount();
    Thread writer = keys.writeUntil(stop);
    // Real processes in containers: writes run for a while before the kill and through the pipelines' closing.
    Thread.sleep(5_000);
    cluster.kill(victim);
    Thread.sleep(15_000);
    stop.set(true);
    writer.join();
    assertTrue(keys.acknowledgedCount() > before, "writes were acknowledged around the kill");
    report("kill -9 of " + victim);
    awaitHealed();
    assertEquals(List.of(), keys.readAll(), "every acknowledged key reads back bit-exact");
  }

  private static void report(String step) {
    System.out.printf("fault suite, %s: %d keys acknowledged so far, %d writes failed to the caller%n", step,
        keys.acknowledgedCount(), keys.failedWrites());
    keys.writeFailures().forEach(f -> System.out.println("  write failed: " + f));
  }

  /** Every closed container at three healthy replicas on two racks, on live in-service nodes, no extras. */
  private static void awaitHealed() throws Exception {
    Await.until("every closed container at three healthy replicas on two racks", HEAL,
        () -> ReplicationHealth.problems(admin), List::isEmpty);
  }

  private static List<ContainerSummary> closedContainers() throws Exception {
    return admin.listContainers(ContainerState.CONTAINER_CLOSED, ContainerHealth.CONTAINER_HEALTH_UNSPECIFIED, 0,
        100_000);
  }

  private static boolean holdsReplicas(String host) throws Exception {
    for (ContainerSummary c : closedContainers()) {
      if (admin.container(c.getContainerId()).getReplicasList().stream()
          .anyMatch(r -> r.getDatanode().getHostName().equals(host))) {
        return true;
      }
    }
    return false;
  }

  /** The datanode holding the most closed-container replicas. */
  private static String busiestDatanode() throws Exception {
    Map<String, Integer> held = new HashMap<>();
    for (ContainerSummary c : closedContainers()) {
      admin.container(c.getContainerId()).getReplicasList()
          .forEach(r -> held.merge(r.getDatanode().getHostName(), 1, Integer::sum));
    }
    return held.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
  }

  private static DatanodeStatus status(String host) throws Exception {
    return admin.listDatanodes(NodeState.NODE_STATE_UNSPECIFIED).stream()
        .filter(d -> d.getDetails().getHostName().equals(host)).findFirst().orElseThrow();
  }

  private static NodeOperationalState operationalState(String host) throws Exception {
    return status(host).getOperationalState();
  }

  private static NodeState nodeState(String host) throws Exception {
    return status(host).getState();
  }

  private static String sha256(String host, String file) {
    return cluster.exec(host, "sha256sum " + file + " | cut -c1-64").trim();
  }

  /** Flips one bit in the middle of the file, in place, as a failing disk would. */
  private static void flipByte(String host, String file) {
    cluster.exec(host, "f=" + file + "; n=$(( $(stat -c %s $f) / 2 )); b=$(od -An -tu1 -j $n -N1 $f | tr -d ' ');"
        + " printf \"\\\\$(printf %03o $(( b ^ 64 )))\" | dd of=$f bs=1 seek=$n count=1 conv=notrunc status=none");
  }
}
