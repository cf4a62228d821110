package org.tropos.om.ratis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.OmTable;
import org.tropos.om.db.RowCodec;
import org.tropos.proto.om.db.JournalEntry;

/**
 * Three OMs' databases behind a real Raft group on loopback: write sets built by the leader reach every replica
 * alike, a write set validated against an older state is refused everywhere and changes nothing, and after the
 * leader is stopped the group goes on with the two left.
 */
@Timeout(120)
class OmStateMachineTest {
  private static final RaftGroupId GROUP = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(
      "om-state-machine-test".getBytes(StandardCharsets.UTF_8)));

  @TempDir
  Path dir;
  private final List<OmDb> dbs = new ArrayList<>();
  private final List<RaftServer> servers = new ArrayList<>();
  private RaftClient client;

  @AfterEach
  void stop() throws IOException {
    if (client != null) {
      client.close();
      client = null;
    }
    for (RaftServer s : servers) {
      s.close();
    }
    for (OmDb db : dbs) {
      db.close();
    }
    servers.clear();
    dbs.clear();
  }

  @Test
  void writeSetsReachEveryOmAlikeAndAStaleOneChangesNothingThroughAFailoverAndARestart() throws Exception {
    RaftGroup group = startGroup(3);
    RatisBatchLog log = new RatisBatchLog(client);
    for (int tx = 1; tx <= 20; tx++) {
      OmDb leader = dbs.get(leaderIndex());
      log.append(leader.entry(List.of(put("key-" + tx, "row " + tx)), tx));
    }
    awaitAll(20);
    for (OmDb db : dbs) {
      assertArrayEquals(row(dbs.get(0), "key-7"), row(db, "key-7"));
    }

    OmDb leader = dbs.get(leaderIndex());
    JournalEntry first = leader.entry(List.of(put("race", "first")), 21);
    JournalEntry second = leader.entry(List.of(put("race", "second")), 21);
    log.append(first);
    IOException refused = assertThrows(IOException.class, () -> log.append(second));
    assertTrue(refused.getMessage().contains("refused: it follows transaction 20, the namespace is at 21"),
        refused.getMessage());
    awaitAll(21);
    for (OmDb db : dbs) {
      assertEquals("first", new String(RowCodec.payload(row(db, "race")), StandardCharsets.UTF_8));
    }

    int stopped = leaderIndex();
    servers.get(stopped).close();
    int next = awaitNewLeader(stopped);
    log.append(dbs.get(next).entry(List.of(put("after", "failover")), 22));
    for (int i = 0; i < 3; i++) {
      if (i != stopped) {
        OmDb db = dbs.get(i);
        Threads.awaitCondition("OM " + i + " at transaction 22", Duration.ofSeconds(10), Duration.ofMillis(20),
            () -> db.lastTxId() == 22);
      }
    }

    // Everything restarts: each OM replays the Raft log over a database that already holds most of it.
    stop();
    start(group, RaftStorage.StartupOption.RECOVER);
    new RatisBatchLog(client).append(dbs.get(leaderIndex()).entry(List.of(put("after", "restart")), 23));
    awaitAll(23);
    for (OmDb db : dbs) {
      assertEquals("restart", new String(RowCodec.payload(row(db, "after")), StandardCharsets.UTF_8),
          "every OM, the one stopped at the failover too, holds the last write set once");
      assertEquals("first", new String(RowCodec.payload(row(db, "race")), StandardCharsets.UTF_8));
      assertArrayEquals(row(dbs.get(0), "key-20"), row(db, "key-20"));
    }
  }

  private RaftGroup startGroup(int count) throws Exception {
    List<RaftPeer> peers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      peers.add(RaftPeer.newBuilder().setId("om" + i).setAddress("127.0.0.1:" + freePort()).build());
    }
    RaftGroup group = RaftGroup.valueOf(GROUP, peers);
    start(group, RaftStorage.StartupOption.FORMAT);
    return group;
  }

  /** Opens every OM's database and starts its Raft server; waits for a leader. */
  private void start(RaftGroup group, RaftStorage.StartupOption option) throws Exception {
    List<RaftPeer> peers = List.copyOf(group.getPeers());
    for (int i = 0; i < peers.size(); i++) {
      OmDb db = OmDb.open(dir.resolve("om" + i).resolve("om.db"));
      dbs.add(db);
      RaftProperties properties = new RaftProperties();
      RaftServerConfigKeys.setStorageDir(properties, List.of(dir.resolve("om" + i).resolve("ratis").toFile()));
      GrpcConfigKeys.Server.setPort(properties, Integer.parseInt(peers.get(i).getAddress().split(":")[1]));
      RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(500, TimeUnit.MILLISECONDS));
      RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(1000, TimeUnit.MILLISECONDS));
      RaftServer server = RaftServer.newBuilder().setServerId(peers.get(i).getId()).setGroup(group)
          .setProperties(properties).setStateMachine(new OmStateMachine(db)).setOption(option).build();
      server.start();
      servers.add(server);
    }
    RaftProperties clientProperties = new RaftProperties();
    client = RaftClient.newBuilder().setProperties(clientProperties).setRaftGroup(group)
        .setClientRpc(new GrpcFactory(new Parameters()).newRaftClientRpc(ClientId.randomId(), clientProperties))
        .build();
    awaitNewLeader(-1);
  }

  private int leaderIndex() throws IOException {
    for (int i = 0; i < servers.size(); i++) {
      RaftServer s = servers.get(i);
      if (s.getLifeCycleState().isRunning() && s.getDivision(GROUP).getInfo().isLeader()) {
        return i;
      }
    }
    return -1;
  }

  private int awaitNewLeader(int not) throws Exception {
    int[] found = {-1};
    Threads.awaitCondition("a leader other than " + not, Duration.ofSeconds(30), Duration.ofMillis(50), () -> {
      found[0] = leaderIndex();
      return found[0] >= 0 && found[0] != not;
    });
    return found[0];
  }

  private void awaitAll(long tx) throws Exception {
    Threads.awaitCondition("every OM at transaction " + tx, Duration.ofSeconds(10), Duration.ofMillis(20),
        () -> dbs.stream().allMatch(db -> db.lastTxId() == tx));
  }

  private static OmDb.Change put(String key, String value) {
    return new OmDb.Change(OmTable.FILES, key.getBytes(StandardCharsets.UTF_8),
        RowCodec.encode(1, value.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] row(OmDb db, String key) throws IOException {
    try (ManagedRocksDb.ReadView view = db.latest()) {
      return view.get(OmTable.FILES.family(), key.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
