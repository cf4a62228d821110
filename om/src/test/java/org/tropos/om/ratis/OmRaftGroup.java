package org.tropos.om.ratis;

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
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;

/**
 * OMs' databases behind a real Raft group on loopback, each with its {@link OmStateMachine}: what the OM daemons
 * will run, without the daemons. Stopping and starting again keeps the group, its ports and its data.
 */
final class OmRaftGroup implements AutoCloseable {
  private static final RaftGroupId GROUP = RaftGroupId.valueOf(UUID.nameUUIDFromBytes(
      "om-raft-group-test".getBytes(StandardCharsets.UTF_8)));

  private final Path dir;
  private final RaftGroup group;
  final List<OmDb> dbs = new ArrayList<>();
  final List<RaftServer> servers = new ArrayList<>();
  private final List<RaftClient> clients = new ArrayList<>();

  /** A group of {@code count} OMs on free loopback ports, formatted and started. */
  OmRaftGroup(Path dir, int count) throws Exception {
    this.dir = dir;
    List<RaftPeer> peers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      peers.add(RaftPeer.newBuilder().setId("om" + i).setAddress("127.0.0.1:" + freePort()).build());
    }
    group = RaftGroup.valueOf(GROUP, peers);
    start(RaftStorage.StartupOption.FORMAT);
  }

  /** Opens every OM's database and starts its Raft server; waits for a leader. */
  void start(RaftStorage.StartupOption option) throws Exception {
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
    awaitLeader(-1);
  }

  /** A client of the group (closed with it). */
  RaftClient client() {
    RaftProperties properties = new RaftProperties();
    RaftClient client = RaftClient.newBuilder().setProperties(properties).setRaftGroup(group)
        .setClientRpc(new GrpcFactory(new Parameters()).newRaftClientRpc(ClientId.randomId(), properties)).build();
    clients.add(client);
    return client;
  }

  int leaderIndex() throws IOException {
    for (int i = 0; i < servers.size(); i++) {
      RaftServer s = servers.get(i);
      if (s.getLifeCycleState().isRunning() && s.getDivision(GROUP).getInfo().isLeader()) {
        return i;
      }
    }
    return -1;
  }

  /** Waits for a leader other than OM {@code not} (-1: any); its index. */
  int awaitLeader(int not) throws Exception {
    int[] found = {-1};
    Threads.awaitCondition("a leader other than " + not, Duration.ofSeconds(30), Duration.ofMillis(50), () -> {
      found[0] = leaderIndex();
      return found[0] >= 0 && found[0] != not;
    });
    return found[0];
  }

  /** Waits until every OM still running has applied transaction {@code tx}. */
  void awaitAll(long tx) throws Exception {
    Threads.awaitCondition("every OM at transaction " + tx, Duration.ofSeconds(10), Duration.ofMillis(20),
        () -> dbs.stream().allMatch(db -> db.lastTxId() == tx));
  }

  /** Stops every client, server and database; {@link #start} brings them back. */
  @Override
  public void close() throws IOException {
    for (RaftClient c : clients) {
      c.close();
    }
    for (RaftServer s : servers) {
      s.close();
    }
    for (OmDb db : dbs) {
      db.close();
    }
    clients.clear();
    servers.clear();
    dbs.clear();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
