package org.tropos.om.ratis;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.ratis.client.RaftClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.db.ReadView;
import org.tropos.common.net.OmService;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Threads;
import org.tropos.om.db.OmDb;
import org.tropos.om.db.OmTable;
import org.tropos.om.db.RowCodec;

/**
 * OMs' databases behind a real Raft group on loopback, each OM's member an {@link OmRaftServer} built from Ozone's
 * HA keys, as the OM daemons will: what they run, without the daemons. Stopping and starting again keeps the
 * group, its ports and its data.
 */
final class OmRaftGroup implements AutoCloseable {
  private final Path dir;
  private final Configuration conf;
  private final OmService service;
  final List<OmDb> dbs = new ArrayList<>();
  final List<OmRaftServer> servers = new ArrayList<>();
  private final List<RaftClient> clients = new ArrayList<>();

  /** A group of {@code count} OMs on free loopback ports, formatted and started. */
  OmRaftGroup(Path dir, int count) throws Exception {
    this(dir, count, Map.of());
  }

  /** The same with further settings ({@code ozone.om.ratis.*}, say). */
  OmRaftGroup(Path dir, int count, Map<String, String> settings) throws Exception {
    this.dir = dir;
    Map<String, String> keys = new HashMap<>(settings);
    keys.put("ozone.om.service.ids", "omservice");
    List<String> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add("om" + i);
      keys.put("ozone.om.address.omservice.om" + i, "127.0.0.1:" + freePort());
      keys.put("ozone.om.ratis.port.omservice.om" + i, Integer.toString(freePort()));
    }
    keys.put("ozone.om.nodes.omservice", String.join(",", nodes));
    conf = new Configuration(keys);
    service = OmService.from(conf).orElseThrow();
    start();
  }

  /** Opens every OM's database and starts its Raft member (formatting it the first time); waits for a leader. */
  void start() throws Exception {
    for (int i = 0; i < service.nodes().size(); i++) {
      dbs.add(null);
      servers.add(null);
      start(i);
    }
    awaitLeader(-1);
  }

  /** Opens OM {@code i}'s database and starts its Raft member. */
  void start(int i) throws IOException {
    OmDb db = OmDb.open(dir.resolve("om" + i).resolve("om.db"));
    dbs.set(i, db);
    OmRaftServer server = new OmRaftServer(OmHaConfig.from(conf, service, service.nodes().get(i),
        ratisDir(i)), db, TransportSecurity.plaintext());
    server.start();
    servers.set(i, server);
  }

  /** Stops OM {@code i}'s Raft member and closes its database; {@link #start(int)} brings it back. */
  void stop(int i) throws IOException {
    servers.get(i).close();
    dbs.get(i).close();
    servers.set(i, null);
    dbs.set(i, null);
  }

  Path ratisDir(int i) {
    return dir.resolve("om" + i).resolve("om-ratis");
  }
  /** A client of the group (closed with it). */
  RaftClient client() {
    RaftClient client = servers.stream().filter(java.util.Objects::nonNull).findFirst().orElseThrow().newClient();
    clients.add(client);
    return client;
  }

  int leaderIndex() throws IOException {
    for (int i = 0; i < servers.size(); i++) {
      if (servers.get(i) != null && servers.get(i).isLeader()) {
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
        () -> dbs.stream().allMatch(db -> db == null || db.lastTxId() == tx));
  }

  /** Stops every client, server and database; {@link #start} brings them back. */
  @Override
  public void close() throws IOException {
    for (RaftClient c : clients) {
      c.close();
    }
    for (OmRaftServer s : servers) {
      if (s != null) {
        s.close();
      }
    }
    for (OmDb db : dbs) {
      if (db != null) {
        db.close();
      }
    }
    clients.clear();
    servers.clear();
    dbs.clear();
  }

  /** The leader's database. */
  OmDb leaderDb() throws IOException {
    return dbs.get(leaderIndex());
  }

  /** A change that puts {@code value} as the row of file {@code key}. */
  static OmDb.Change put(String key, String value) {
    return new OmDb.Change(OmTable.FILES, key.getBytes(StandardCharsets.UTF_8),
        RowCodec.encode(1, value.getBytes(StandardCharsets.UTF_8)));
  }

  /** The row of file {@code key} in {@code db}, or null. */
  static byte[] row(OmDb db, String key) throws IOException {
    try (ReadView view = db.latest()) {
      return view.get(OmTable.FILES.family(), key.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** What {@link #put} stored in a row. */
  static String text(byte[] row) {
    return new String(RowCodec.payload(row), StandardCharsets.UTF_8);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
