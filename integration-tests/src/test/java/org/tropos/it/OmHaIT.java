package org.tropos.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;
import org.tropos.common.net.OmService;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.SystemClock;
import org.tropos.om.OmConfig;
import org.tropos.om.OmServer;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.BucketLayout;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.tools.local.KeptPorts;

/**
 * Three OMs of one HA service (Ozone's keys) in this JVM, in front of a mini cluster's SCM and datanodes, and a
 * client configured with the service only: it finds the leader, and follows the next one when the leader stops
 * while it writes. Every write acknowledged is there exactly once afterwards, on the OMs that remain and after
 * all three restart.
 */
class OmHaIT {
  private static final int OMS = 3;

  private MiniCluster mini;
  private Configuration haConf;
  private final List<OmServer> oms = new ArrayList<>();
  private Path dir;

  @BeforeEach
  void start(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    mini = new MiniCluster(dir.resolve("mini"), 3);
    mini.awaitAllHealthy();
    List<OmService.Node> nodes = new ArrayList<>();
    for (int i = 0; i < OMS; i++) {
      nodes.add(new OmService.Node("om" + i, new HostPort("127.0.0.1", KeptPorts.pick()),
          new HostPort("127.0.0.1", KeptPorts.pick())));
    }
    Map<String, String> keys = new OmService("omservice", nodes).toKeys();
    haConf = mini.clientConfig().with(keys);
    for (int i = 0; i < OMS; i++) {
      oms.add(startOm(i));
    }
  }

  private OmServer startOm(int i) throws Exception {
    OmServer om = new OmServer(OmConfig.from(haConf.with(Map.of("ozone.om.node.id", "om" + i,
        "ozone.om.db.dirs", dir.resolve("om" + i).toString()))), SystemClock.INSTANCE);
    om.start();
    return om;
  }

  @AfterEach
  void stop() {
    oms.forEach(om -> {
      if (om != null) {
        om.close();
      }
    });
    if (mini != null) {
      mini.close();
    }
  }

  @Test
  void writesGoOnThroughALeaderStopAndEveryAcknowledgedOneIsThereOnce() throws Exception {
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (TroposClient client = TroposClient.create(haConf)) {
      client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
      client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("fso")
          .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
      AtomicBoolean running = new AtomicBoolean(true);
      ExecutorService writers = Executors.newFixedThreadPool(4);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        done.add(writers.submit(() -> {
          for (int n = 0; running.get(); n++) {
            String name = "w" + writer + "/d" + n;
            String renamed = "w" + writer + "/r" + n;
            try {
              client.createDirectory("vol", "fso", name);
              client.renameKey("vol", "fso", name, renamed);
              acknowledged.add(renamed);
            } catch (OmException e) {
              failures.add(name + ": " + e);
            }
          }
          return null;
        }));
      }
      Await.until("100 directories", MiniCluster.WAIT, acknowledged::size, n -> n >= 100);
      int leader = leader();
      oms.get(leader).close();
      oms.set(leader, null);
      int before = acknowledged.size();
      Await.until("100 more directories after the leader stopped", MiniCluster.WAIT, acknowledged::size,
          n -> n >= before + 100);
      assertNotEquals(leader, leader(), "another OM leads");
      running.set(false);
      for (Future<?> f : done) {
        f.get();
      }
      writers.shutdown();
      assertEquals(List.of(), failures);
      for (String name : acknowledged) {
        client.getFileStatus("vol", "fso", name);
        OmException gone = org.junit.jupiter.api.Assertions.assertThrows(OmException.class,
            () -> client.getFileStatus("vol", "fso", name.replace("/r", "/d")));
        assertEquals(OmResult.KEY_NOT_FOUND, gone.result());
      }
    }
    for (int i = 0; i < OMS; i++) {
      if (oms.get(i) != null) {
        oms.get(i).close();
      }
      oms.set(i, startOm(i));
    }
    try (TroposClient client = TroposClient.create(haConf)) {
      for (String name : acknowledged) {
        client.getFileStatus("vol", "fso", name);
      }
      assertEquals(OMS, oms.size());
    }
    assertTrue(acknowledged.size() >= 200);
  }

  /**
   * A call sent twice with one call id, as a client does when the answer to its first attempt was lost in a
   * failover: the second attempt gets the first one's answer, and the change is made once.
   */
  @Test
  void aCallSentAgainAfterItWasAppliedIsAnsweredAsTheFirstTime() throws Exception {
    int leader = leader();
    io.grpc.ManagedChannel channel = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
        .forAddress("127.0.0.1", oms.get(leader).port()).usePlaintext().build();
    try {
      String callId = "it-client:" + System.currentTimeMillis() + ":1";
      // As the OM's own user, an administrator: only administrators create volumes.
      io.grpc.ClientInterceptor asAdministrator = org.tropos.common.rpc.Callers.sending(
          org.tropos.common.rpc.Callers.localUser());
      org.tropos.proto.om.OmServiceGrpc.OmServiceBlockingStub stub = org.tropos.proto.om.OmServiceGrpc
          .newBlockingStub(channel).withInterceptors(org.tropos.common.rpc.CallIds.sending(callId), asAdministrator);
      org.tropos.proto.om.CreateVolumeRequest create = org.tropos.proto.om.CreateVolumeRequest.newBuilder()
          .setVolume(VolumeInfo.newBuilder().setName("once").setOwner("it")).build();
      VolumeInfo first = stub.createVolume(create).getVolume();
      assertEquals(first, stub.createVolume(create).getVolume());
      io.grpc.StatusRuntimeException again = org.junit.jupiter.api.Assertions.assertThrows(
          io.grpc.StatusRuntimeException.class, () -> org.tropos.proto.om.OmServiceGrpc.newBlockingStub(channel)
              .withInterceptors(org.tropos.common.rpc.CallIds.sending("it-client:" + System.currentTimeMillis()
                  + ":2"), asAdministrator).createVolume(create));
      assertEquals(OmResult.VOLUME_ALREADY_EXISTS, OmException.fromRpc(again, "om").result());
      assertEquals(1, oms.get(leader).metrics().answeredFromRecord());
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * The Hadoop FileSystem with the service id as the URI's authority ({@code tropos://omservice/}, as Ozone's
   * {@code ofs://}): it writes, the leader stops, it reads what it wrote and writes on.
   */
  @Test
  void theFileSystemNamedByServiceIdFollowsTheLeader() throws Exception {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    for (String key : List.of("ozone.om.service.ids", "ozone.om.nodes.omservice", "ozone.om.address.omservice.om0",
        "ozone.om.address.omservice.om1", "ozone.om.address.omservice.om2", "ozone.scm.client.address",
        "ozone.scm.block.client.address")) {
      conf.set(key, haConf.raw(key));
    }
    conf.set("fs.tropos.impl", "org.tropos.client.hadoop.TroposFileSystem");
    mini.awaitOpenPipelines(1);
    byte[] data = new byte[300_000];
    new java.util.Random(17).nextBytes(data);
    try (org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.newInstance(
        java.net.URI.create("tropos://omservice/"), conf)) {
      org.apache.hadoop.fs.Path before = new org.apache.hadoop.fs.Path("/vol/fsbucket/before.bin");
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(before)) {
        out.write(data);
      }
      int leader = leader();
      oms.get(leader).close();
      oms.set(leader, null);
      try (org.apache.hadoop.fs.FSDataInputStream in = fs.open(before)) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(data, in.readAllBytes());
      }
      org.apache.hadoop.fs.Path after = new org.apache.hadoop.fs.Path("/vol/fsbucket/after.bin");
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(after)) {
        out.write(data);
      }
      assertEquals(data.length, fs.getFileStatus(after).getLen());
      assertEquals(2, fs.listStatus(new org.apache.hadoop.fs.Path("/vol/fsbucket")).length);
    }
  }

  @Test
  void followersAnswerTheReadsOfAClientThatAsksAndEachSeesTheWriteBeforeIt() throws Exception {
    haConf = haConf.with(Map.of("ozone.om.follower.read.enabled", "true"));
    for (int i = 0; i < OMS; i++) {
      oms.get(i).close();
      oms.set(i, startOm(i));
    }
    try (TroposClient client = TroposClient.create(haConf.with(Map.of("ozone.client.follower.read.enabled",
        "true")))) {
      client.createVolume(VolumeInfo.newBuilder().setName("vol").setOwner("it").build());
      client.createBucket(BucketInfo.newBuilder().setVolume("vol").setName("fso")
          .setLayout(BucketLayout.FILE_SYSTEM_OPTIMIZED).build());
      // Just restarted, a follower may not know the leader yet: the client then skips its turns for a while. Counted
      // from when every follower has served a read, the steady state is measured, not the restart.
      int leader = leader();
      int[] warm = {0};
      // Three OMs just restarted on two busy cores may take longer than one wait to settle: a CI run once saw 20 s go by.
      Await.until("every follower serving reads", MiniCluster.WAIT.multipliedBy(3), () -> {
        createAndRead(client, "warm" + warm[0]++);
        return followerReads(leader);
      }, served -> Arrays.stream(served).filter(n -> n > 0).count() == OMS - 1);
      long before = Arrays.stream(followerReads(leader)).sum();
      for (int n = 0; n < 60; n++) {
        createAndRead(client, "d" + n);
      }
      assertEquals(leader, leader(), "the leadership moved during the test");
      long followerReads = Arrays.stream(followerReads(leader)).sum() - before;
      assertTrue(followerReads >= 30, "the followers answered most of the 60 reads: " + followerReads);
    }
  }

  private static void createAndRead(TroposClient client, String directory) throws Exception {
    client.createDirectory("vol", "fso", directory);
    // KEY_NOT_FOUND if the OM that answers had not applied the write acknowledged just before.
    client.getFileStatus("vol", "fso", directory);
  }

  /** The reads each OM answered as a follower; the leader's count is checked to be 0. */
  private long[] followerReads(int leader) {
    long[] served = new long[OMS];
    for (int i = 0; i < OMS; i++) {
      served[i] = oms.get(i).metrics().followerReads();
      assertTrue(i != leader || served[i] == 0, "the leader answers reads as leader");
    }
    return served;
  }

  /** The node whose row of {@code tropos admin om roles} says {@code role}. */
  private static List<String> nodesIn(String roles, String role) {
    return roles.lines().skip(1).map(l -> l.split("\\s+")).filter(f -> f[2].equals(role)).map(f -> f[0]).toList();
  }

  @Test
  void adminShowsTheRolesAndMovesTheLeadership() throws Exception {
    Map<String, String> keys = new HashMap<>();
    for (String key : List.of("ozone.om.service.ids", "ozone.om.nodes.omservice", "ozone.om.address.omservice.om0",
        "ozone.om.address.omservice.om1", "ozone.om.address.omservice.om2", "ozone.scm.client.address",
        "ozone.scm.block.client.address")) {
      keys.put(key, haConf.raw(key));
    }
    String conf = TroposCli.confDir(dir, keys);
    leader();
    String roles = TroposCli.run(0, "admin", "om", "roles", "--conf", conf);
    assertEquals(1, nodesIn(roles, "LEADER").size(), roles);
    List<String> followers = nodesIn(roles, "FOLLOWER");
    assertEquals(2, followers.size(), roles);

    String next = followers.get(0);
    assertTrue(TroposCli.run(0, "admin", "om", "transfer", next, "--conf", conf).contains(next));
    assertEquals(List.of(next), nodesIn(TroposCli.run(0, "admin", "om", "roles", "--conf", conf), "LEADER"));
    try (TroposClient client = TroposClient.create(haConf)) {
      client.createVolume(VolumeInfo.newBuilder().setName("after-transfer").setOwner("it").build());
    }
    assertEquals("om" + leader(), next);
    TroposCli.run(1, "admin", "om", "transfer", "om9", "--conf", conf);

    int stopped = (leader() + 1) % OMS;
    oms.get(stopped).close();
    oms.set(stopped, null);
    assertTrue(TroposCli.run(4, "admin", "om", "roles", "--conf", conf).contains("UNREACHABLE"));
  }

  /** The OM that serves (the others answer NOT_LEADER to their clients). */
  private int leader() throws Exception {
    int[] found = {-1};
    Await.until("a leader among the OMs", MiniCluster.WAIT, () -> {
      for (int i = 0; i < oms.size(); i++) {
        if (oms.get(i) != null && oms.get(i).serving()) {
          found[0] = i;
          return i;
        }
      }
      return -1;
    }, i -> i >= 0);
    return found[0];
  }
}
