package org.tropos.scm.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.net.HostPort;
import org.tropos.common.ratis.RaftMember;
import org.tropos.common.ratis.RaftSnapshotPolicy;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.scm.db.ContainerRecord;
import org.tropos.proto.scm.db.DeletedBlocksRecord;
import org.tropos.scm.db.ScmDb;

/**
 * Three SCMs' databases behind a real Raft group on loopback: what the leader writes through the group is on
 * every SCM, a follower cannot write, the group goes on after its leader stops, and everything survives a restart
 * of all three (each replaying its own log); an SCM that missed entries the leader purged behind a snapshot loads
 * the snapshot.
 */
@Timeout(120)
class ScmReplicationTest {
  private static final String SERVICE = "scmservice";

  @TempDir
  Path dir;

  private final Map<String, HostPort> peers = new LinkedHashMap<>();
  private final List<ScmDb> dbs = new ArrayList<>();
  private final List<ScmRaftServer> servers = new ArrayList<>();
  /** Ozone's defaults would snapshot every 1,000 entries and keep a million: the first test never snapshots. */
  private RaftSnapshotPolicy snapshots = new RaftSnapshotPolicy(1000, 1_000_000, 4 << 20);

  @Test
  void whatTheLeaderWritesIsOnEveryScmThroughAFailoverAndARestart() throws Exception {
    for (int i = 0; i < 3; i++) {
      peers.put("scm" + i, new HostPort("127.0.0.1", freePort()));
    }
    startAll();
    ScmDb leader = leaderDb();
    for (long id = 1; id <= 20; id++) {
      leader.putContainer(container(id, ContainerState.CONTAINER_OPEN));
    }
    leader.putContainer(container(7, ContainerState.CONTAINER_CLOSED));
    leader.deleteContainer(20);
    leader.appendDeletedBlocks(List.of(DeletedBlocksRecord.newBuilder().setTxId(1).setContainerId(3)
        .addLocalIds(11).build()), 2);
    leader.putMeta("clusterId", "CID-replicated");
    awaitAllAt(lastIndex());
    for (ScmDb db : dbs) {
      assertEquals(leader.containers(), db.containers(), "every SCM holds the leader's containers");
      assertEquals(1, db.deletedBlocksCount());
      assertEquals(2, db.nextDeletedBlocksTxId());
      assertEquals("CID-replicated", db.meta("clusterId"));
    }

    int follower = (leaderIndex() + 1) % 3;
    dbs.get(follower).writeThrough(servers.get(follower).rowLog());
    assertThrows(NotLeaderException.class, () -> dbs.get(follower).putMeta("clusterId", "CID-other"),
        "a follower cannot write");

    int stopped = leaderIndex();
    servers.get(stopped).close();
    servers.set(stopped, null);
    ScmDb next = awaitLeaderDb(stopped);
    next.putContainer(container(21, ContainerState.CONTAINER_OPEN));
    next.removeDeletedBlocks(List.of(1L));

    closeAll();
    startAll();
    ScmDb restarted = leaderDb();
    restarted.putContainer(container(22, ContainerState.CONTAINER_OPEN));
    awaitAllAt(lastIndex());
    for (ScmDb db : dbs) {
      assertEquals(21, db.containers().size(), "1-19, 21, 22 on every SCM, the one stopped at the failover too");
      assertEquals(ContainerState.CONTAINER_CLOSED, db.containers().stream().filter(c -> c.getContainerId() == 7).findFirst()
          .orElseThrow().getState());
      assertEquals(0, db.deletedBlocksCount());
      assertEquals("CID-replicated", db.meta("clusterId"));
    }
  }

  @Test
  void anScmBehindThePurgedLogInstallsTheLeadersSnapshotAndKeepsItAcrossARestart() throws Exception {
    snapshots = new RaftSnapshotPolicy(20, 10, 8 << 10);
    for (int i = 0; i < 3; i++) {
      peers.put("scm" + i, new HostPort("127.0.0.1", freePort()));
    }
    startAll();
    ScmDb leader = leaderDb();
    leader.putMeta("clusterId", "CID-snapshotted");
    awaitAllAt(lastIndex());
    int behind = (leaderIndex() + 1) % 3;
    stop(behind);
    long missedFrom = lastIndex() + 1;
    for (long id = 1; id <= 300; id++) {
      leader.putContainer(container(id, ContainerState.CONTAINER_OPEN));
    }
    RaftMember leaderMember = servers.get(leaderIndex()).member();
    Threads.awaitCondition("the leader's log purged behind a snapshot", Duration.ofSeconds(20),
        Duration.ofMillis(50), () -> leaderMember.logStartIndex() > missedFrom);

    start(behind);
    // Ratis holds a snapshot stream that failed (the SCM was down) for 8 request timeouts (12 s) before a retry.
    awaitAllAt(lastIndex(), Duration.ofSeconds(40));
    assertEquals(leader.containers(), dbs.get(behind).containers(), "the SCM that missed purged entries has every"
        + " container from the leader's snapshot");
    assertEquals("CID-snapshotted", dbs.get(behind).meta("clusterId"));
    assertFalse(dbs.get(behind).installing());

    List<ContainerRecord> expected = leader.containers();
    closeAll();
    startAll();
    leaderDb().putContainer(container(301, ContainerState.CONTAINER_OPEN));
    awaitAllAt(lastIndex());
    for (ScmDb db : dbs) {
      assertEquals(expected.size() + 1, db.containers().size(), "every SCM restarts from its snapshot and log");
    }
  }

  private static ContainerRecord container(long id, ContainerState state) {
    return ContainerRecord.newBuilder().setContainerId(id).setState(state).setNextLocalId(1).build();
  }

  private void startAll() throws IOException {
    for (String node : peers.keySet()) {
      dbs.add(null);
      servers.add(null);
      start(servers.size() - 1);
    }
  }

  /** Starts SCM {@code i} on its database and Raft storage (kept from an earlier start, if any). */
  private void start(int i) throws IOException {
    String node = List.copyOf(peers.keySet()).get(i);
    ScmDb db = ScmDb.open(dir.resolve(node).resolve("scm.db"));
    ScmRaftServer server = new ScmRaftServer(SERVICE, peers, node, dir.resolve(node).resolve("scm-ratis"), db,
        snapshots, Map.of(), TransportSecurity.plaintext());
    server.start();
    dbs.set(i, db);
    servers.set(i, server);
  }

  private void stop(int i) throws IOException {
    servers.get(i).close();
    servers.set(i, null);
    dbs.get(i).close();
    dbs.set(i, null);
  }

  private int leaderIndex() throws IOException {
    for (int i = 0; i < servers.size(); i++) {
      if (servers.get(i) != null && servers.get(i).member().isReadyLeader()) {
        return i;
      }
    }
    return -1;
  }

  private ScmDb leaderDb() throws Exception {
    return awaitLeaderDb(-1);
  }

  /** Waits for a leader other than SCM {@code not}; its database, writing through the group. */
  private ScmDb awaitLeaderDb(int not) throws Exception {
    int[] found = {-1};
    Threads.awaitCondition("an SCM leader", Duration.ofSeconds(30), Duration.ofMillis(50), () -> {
      found[0] = leaderIndex();
      return found[0] >= 0 && found[0] != not;
    });
    ScmDb db = dbs.get(found[0]);
    db.writeThrough(servers.get(found[0]).rowLog());
    return db;
  }

  private long lastIndex() {
    return dbs.get(leaderIndexUnchecked()).lastLogIndex();
  }

  private int leaderIndexUnchecked() {
    try {
      return leaderIndex();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void awaitAllAt(long index) throws Exception {
    awaitAllAt(index, Duration.ofSeconds(10));
  }

  private void awaitAllAt(long index, Duration timeout) throws Exception {
    Threads.awaitCondition("every SCM at log index " + index, timeout, Duration.ofMillis(20),
        () -> dbs.stream().allMatch(db -> db.lastLogIndex() >= index));
  }

  @AfterEach
  void closeAll() throws IOException {
    for (ScmRaftServer s : servers) {
      if (s != null) {
        s.close();
      }
    }
    dbs.stream().filter(java.util.Objects::nonNull).forEach(ScmDb::close);
    servers.clear();
    dbs.clear();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
