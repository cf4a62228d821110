package org.tropos.scm.block;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tropos.scm.block.DeletedBlockLogTest.key;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.db.ManagedRocksDb;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.scm.DeleteBlocksAck;
import org.tropos.proto.scm.DeleteBlocksTransaction;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.scm.db.ScmDb;
import org.tropos.scm.node.CommandQueue;
import org.tropos.scm.node.NodeManager;

class BlockDeletingServiceTest {
  private static final Duration INTERVAL = Duration.ofSeconds(60);
  private static final Duration RESEND = Duration.ofMinutes(5);
  private static final Duration STALE = Duration.ofMinutes(2);
  private static final Duration DEAD = Duration.ofMinutes(4);

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock();
  private final CommandQueue commands = new CommandQueue();
  /** Container id -> the datanodes holding it and their replicas' incarnations, as the container manager would say. */
  private final Map<Long, Map<UUID, Long>> holders = new HashMap<>();
  private final List<UUID> dns = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
  /** What the container manager was told was done, as container/transaction. */
  private final List<String> done = new ArrayList<>();
  private ScmDb db;
  private DeletedBlockLog log;
  private NodeManager nodes;
  private BlockDeletingService service;

  @BeforeEach
  void open() throws Exception {
    db = ScmDb.open(dir);
    nodes = new NodeManager(db, (h, ip) -> "/rack", clock, STALE, DEAD, "CID-test", commands);
    for (UUID dn : dns) {
      nodes.register(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(dn)).setHostName("dn-" + dn).build(),
          NodeReport.getDefaultInstance(), "");
    }
    holders.put(1L, firstIncarnations());
    holders.put(2L, firstIncarnations());
    service = newService(new BlockDeletionConfig(INTERVAL, 1000, 3, RESEND));
  }

  private BlockDeletingService newService(BlockDeletionConfig config) throws IOException {
    log = new DeletedBlockLog(db);
    log.load();
    return new BlockDeletingService(log, id -> Optional.ofNullable(holders.get(id)),
        (container, txId) -> done.add(container + "/" + txId), nodes, commands, clock, config);
  }

  private Map<UUID, Long> firstIncarnations() {
    Map<UUID, Long> first = new LinkedHashMap<>();
    dns.forEach(dn -> first.put(dn, 1L));
    return first;
  }

  @AfterEach
  void close() {
    db.close();
    assertTrue(ManagedRocksDb.openDatabases().isEmpty(), "RocksDB left open");
  }

  /** The deletion transactions queued for a datanode, draining its queue. */
  private List<DeleteBlocksTransaction> sentTo(UUID dn) {
    List<DeleteBlocksTransaction> txs = new ArrayList<>();
    for (ScmCommand c : commands.drain(dn)) {
      assertTrue(c.hasDeleteBlocks(), "only deletions are queued here: " + c);
      txs.addAll(c.getDeleteBlocks().getTransactionsList());
    }
    return txs;
  }

  private List<Long> txIdsSentTo(UUID dn) {
    return sentTo(dn).stream().map(DeleteBlocksTransaction::getTxId).toList();
  }

  private void ack(UUID dn, long container, Long... txIds) {
    service.acknowledged(dn, List.of(DeleteBlocksAck.newBuilder().setContainerId(container)
        .addAllTxIds(List.of(txIds)).build()));
  }

  @Test
  void aTransactionGoesToEveryHolderAndLeavesTheLogOnlyWhenAllAcknowledged() throws Exception {
    log.append(List.of(key("k1", 1, 10, 1, 11, 2, 20)));
    service.run();
    for (UUID dn : dns) {
      List<DeleteBlocksTransaction> txs = sentTo(dn);
      assertEquals(List.of(1L, 2L), txs.stream().map(DeleteBlocksTransaction::getTxId).toList());
      assertEquals(List.of(10L, 11L), txs.get(0).getLocalIdsList());
    }
    ack(dns.get(0), 1, 1L);
    ack(dns.get(0), 2, 2L);
    ack(dns.get(1), 1, 1L);
    ack(dns.get(2), 2, 1L);
    service.run();
    assertEquals(2, log.size(), "no transaction has all three acknowledgements (one ack named the wrong container)");
    assertEquals(List.of(), done);
    ack(dns.get(2), 1, 1L);
    service.run();
    assertEquals(1, log.size(), "transaction 1 is done");
    assertEquals(List.of("1/1"), done, "the container manager is told before the transaction is forgotten");
    ack(dns.get(1), 2, 2L);
    ack(dns.get(2), 2, 2L);
    service.run();
    assertEquals(0, log.size());
    assertEquals(0, service.inFlight());
    dns.forEach(dn -> assertEquals(List.of(), txIdsSentTo(dn), "nothing re-sent: all within the resend time"));
  }

  /**
   * A datanode's acknowledgement holds for the replica that carried the deletion out: one that went and came back
   * (here dns[0]'s, made again by its pipeline's log replayed onto an emptied disk) holds the blocks again.
   */
  @Test
  void anAcknowledgementCountsOnlyForTheReplicaThatMadeIt() throws Exception {
    log.append(List.of(key("k1", 1, 10)));
    service.run();
    dns.forEach(this::txIdsSentTo);
    ack(dns.get(0), 1, 1L);
    holders.get(1L).put(dns.get(0), 2L);
    ack(dns.get(1), 1, 1L);
    ack(dns.get(2), 1, 1L);
    service.run();
    assertEquals(1, log.size(), "the replica dns[0] holds now has not carried it out");
    assertEquals(List.of(), done);
    clock.advance(RESEND);
    service.run();
    assertEquals(List.of(1L), txIdsSentTo(dns.get(0)), "sent again to the new replica only");
    assertEquals(List.of(), txIdsSentTo(dns.get(1)));
    ack(dns.get(0), 1, 1L);
    service.run();
    assertEquals(0, log.size());
    assertEquals(List.of("1/1"), done);
  }

  @Test
  void unacknowledgedTransactionsAreResentAfterTheTimeoutOnlyToWhoeverHasNotAcknowledged() throws Exception {
    log.append(List.of(key("k1", 1, 10)));
    service.run();
    dns.forEach(this::txIdsSentTo);
    ack(dns.get(0), 1, 1L);
    clock.advance(RESEND.minusSeconds(1));
    service.run();
    dns.forEach(dn -> assertEquals(List.of(), txIdsSentTo(dn)));
    clock.advance(Duration.ofSeconds(1));
    service.run();
    assertEquals(List.of(), txIdsSentTo(dns.get(0)));
    assertEquals(List.of(1L), txIdsSentTo(dns.get(1)));
    assertEquals(List.of(1L), txIdsSentTo(dns.get(2)));
  }

  @Test
  void afterARestartEveryTransactionIsSentAgainAndFinishes() throws Exception {
    log.append(List.of(key("k1", 1, 10)));
    service.run();
    dns.forEach(this::txIdsSentTo);
    ack(dns.get(0), 1, 1L);
    db.close();
    db = ScmDb.open(dir);
    nodes = new NodeManager(db, (h, ip) -> "/rack", clock, STALE, DEAD, "CID-test", commands);
    nodes.load();
    service = newService(new BlockDeletionConfig(INTERVAL, 1000, 3, RESEND));
    service.run();
    dns.forEach(dn -> assertEquals(List.of(), txIdsSentTo(dn), "nodes loaded from the database are STALE"));
    for (UUID dn : dns) {
      nodes.register(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(dn)).setHostName("dn-" + dn).build(),
          NodeReport.getDefaultInstance(), "CID-test");
    }
    service.run();
    for (UUID dn : dns) {
      assertEquals(List.of(1L), txIdsSentTo(dn), "sent to all: acknowledgements are not persisted");
      ack(dn, 1, 1L);
    }
    service.run();
    assertEquals(0, log.size());
  }

  @Test
  void nothingIsSentWhileAHolderIsNotHealthyAndProgressIsDroppedWhenOneDies() throws Exception {
    log.append(List.of(key("k1", 1, 10)));
    service.run();
    dns.forEach(this::txIdsSentTo);
    ack(dns.get(0), 1, 1L);
    ack(dns.get(1), 1, 1L);
    clock.advance(DEAD);
    nodes.heartbeat(dns.get(0), NodeReport.getDefaultInstance(), List.of(), List.of());
    nodes.heartbeat(dns.get(1), NodeReport.getDefaultInstance(), List.of(), List.of());
    nodes.checkNodes();
    assertEquals(NodeState.DEAD, nodes.node(dns.get(2)).orElseThrow().state());
    log.append(List.of(key("k2", 2, 20)));
    service.run();
    dns.forEach(dn -> assertEquals(List.of(), txIdsSentTo(dn), "k2 waits for all holders; k1 forgotten"));
    assertEquals(0, service.inFlight());
    nodes.heartbeat(dns.get(2), NodeReport.getDefaultInstance(), List.of(), List.of());
    service.run();
    dns.forEach(dn -> assertEquals(List.of(1L, 2L), txIdsSentTo(dn), "both to all three once they are back"));
  }

  @Test
  void aTransactionIsResentAtMostMaxRetryTimes() throws Exception {
    log.append(List.of(key("k1", 1, 10)));
    for (int i = 0; i < 6; i++) {
      service.run();
      for (UUID dn : dns) {
        assertEquals(i <= 3 ? List.of(1L) : List.of(), txIdsSentTo(dn), "run " + i + " (max retry 3)");
        nodes.heartbeat(dn, NodeReport.getDefaultInstance(), List.of(), List.of());
      }
      clock.advance(RESEND);
    }
    assertEquals(1, log.size(), "the transaction stays in the log");
  }

  @Test
  void aRunSendsAtMostPerIntervalMaxBlocksAndTheNextRunGoesOn() throws Exception {
    service = newService(new BlockDeletionConfig(INTERVAL, 3, 3, RESEND));
    log.append(List.of(key("k1", 1, 10, 1, 11), key("k2", 1, 12, 1, 13), key("k3", 2, 20, 2, 21, 2, 22, 2, 23)));
    service.run();
    assertEquals(List.of(1L), txIdsSentTo(dns.get(0)), "two blocks; the next two would exceed 3");
    service.run();
    assertEquals(List.of(2L), txIdsSentTo(dns.get(0)));
    service.run();
    assertEquals(List.of(3L), txIdsSentTo(dns.get(0)), "a transaction larger than the limit goes alone");
    dns.forEach(this::txIdsSentTo);
    for (UUID dn : dns) {
      ack(dn, 1, 1L, 2L);
      ack(dn, 2, 3L);
    }
    service.run();
    assertEquals(0, log.size());
  }

  @Test
  void aTransactionOfAContainerScmDoesNotKnowIsDropped() throws ScmException {
    log.append(List.of(key("k1", 99, 1)));
    service.run();
    assertEquals(0, log.size());
    dns.forEach(dn -> assertEquals(List.of(), txIdsSentTo(dn)));
  }
}
