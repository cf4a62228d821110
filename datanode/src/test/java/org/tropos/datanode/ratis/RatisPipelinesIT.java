package org.tropos.datanode.ratis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.datanode.ContainerCommandResponse;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.hdds.RaftRole;
import org.tropos.proto.scm.CloseContainerCommand;
import org.tropos.proto.scm.ScmCommand;

/** Three real Ratis servers on loopback, each with two RaftLog directories, hosting several pipelines. */
@Timeout(120)
class RatisPipelinesIT {
  private static final long SNAPSHOT_EVERY_ENTRIES = 10_000;
  @TempDir
  Path dir;
  private final List<UUID> ids = List.of(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
  private final List<RatisPipelines> servers = new ArrayList<>(List.of());
  private final List<Integer> ports = new ArrayList<>();

  private final List<ContainerStore> stores = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(RatisPipelines::close);
    stores.forEach(ContainerStore::close);
    stores.clear();
  }

  private ContainerStore store(int i) throws Exception {
    VolumeSet volumes = new VolumeSet("dn" + i, List.of(dir.resolve("dn" + i + "/data")), List.of());
    volumes.createDirectories();
    volumes.format(ids.get(i), "CID-test");
    ContainerStore store = new ContainerStore("dn" + i, "CID-test", volumes.dataVolumes());
    store.open();
    stores.add(store);
    return store;
  }

  private void startAll() throws Exception {
    startAll(Map.of());
  }

  private void startAll(Map<String, String> ratisSettings) throws Exception {
    servers.clear();
    for (int i = 0; i < 3; i++) {
      servers.add(startServer(i, store(i), ratisSettings));
      if (ports.size() <= i) {
        ports.add(servers.get(i).port());
      }
    }
  }

  private RatisPipelines startServer(int i, ContainerStore store, Map<String, String> ratisSettings)
      throws Exception {
    RatisPipelines server = new RatisPipelines("dn" + i, ids.get(i), "127.0.0.1",
        ports.size() > i ? ports.get(i) : 0, List.of(dir.resolve("dn" + i + "/r1"), dir.resolve("dn" + i + "/r2")),
        store, SNAPSHOT_EVERY_ENTRIES, ratisSettings);
    server.start();
    return server;
  }

  private List<DatanodeDetails> members() {
    List<DatanodeDetails> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      members.add(DatanodeDetails.newBuilder().setUuid(Uuids.toProto(ids.get(i))).setHostName("127.0.0.1")
          .setIpAddress("127.0.0.1").addPorts(Port.newBuilder().setName(PortName.RATIS).setValue(ports.get(i)))
          .build());
    }
    return members;
  }

  private static PipelineId pipeline() {
    return PipelineId.newBuilder().setId(Uuids.toProto(UUID.randomUUID())).build();
  }

  private void create(PipelineId pipeline, int leader) throws Exception {
    for (RatisPipelines server : servers) {
      server.join(pipeline, members(), ids.get(leader));
    }
  }

  private PipelineReport report(int server, PipelineId pipeline) {
    return servers.get(server).reports().stream().filter(r -> r.getPipelineId().equals(pipeline)).findFirst()
        .orElse(null);
  }

  private void awaitLeader(PipelineId pipeline, int leader) throws Exception {
    awaitAll(pipeline, r -> r != null && r.hasLeader() && Uuids.fromProto(r.getLeader()).equals(ids.get(leader)));
  }

  private void awaitAll(PipelineId pipeline, Predicate<PipelineReport> done) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    for (int i = 0; i < 3; i++) {
      while (!done.test(report(i, pipeline))) {
        assertTrue(System.nanoTime() < deadline, "server " + i + " report: " + report(i, pipeline));
        Thread.sleep(50); // real Ratis servers elect and report in their own time: polled
      }
    }
  }

  /** A new leader accepts a transfer once it has committed in its term; SCM likewise retries on its next round. */
  private void transferWhenReady(int from, PipelineId pipeline, int to) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      try {
        servers.get(from).transferLeadership(pipeline, ids.get(to));
        return;
      } catch (java.io.IOException e) {
        assertTrue(System.nanoTime() < deadline && e.getMessage().contains("not ready"), e.toString());
        Thread.sleep(100); // the real group is not ready to transfer yet: polled
      }
    }
  }

  @Test
  void pipelinesElectTheSuggestedLeaderSpreadLogsRecoverAndMove() throws Exception {
    startAll();
    PipelineId first = pipeline();
    PipelineId second = pipeline();
    create(first, 0);
    create(second, 1);
    create(first, 0);
    awaitLeader(first, 0);
    awaitLeader(second, 1);
    assertEquals(RaftRole.LEADER, report(0, first).getRole());
    assertEquals(RaftRole.FOLLOWER, report(2, first).getRole());
    for (int i = 0; i < 3; i++) {
      assertNotEquals(report(i, first).getLogDir(), report(i, second).getLogDir(), "two groups, two RaftLog disks");
      Map<Path, Integer> perDir = servers.get(i).groupsPerLogDir(servers.get(i).reports());
      assertEquals(Map.of(dir.resolve("dn" + i + "/r1"), 1, dir.resolve("dn" + i + "/r2"), 1), perDir);
    }

    transferWhenReady(0, first, 2);
    awaitLeader(first, 2);

    stop();
    startAll();
    awaitAll(first, r -> r != null && r.hasLeader());
    awaitAll(second, r -> r != null && r.hasLeader());
    PipelineId third = pipeline();
    create(third, 2);
    awaitLeader(third, 2);

    for (RatisPipelines server : servers) {
      server.leave(second);
      server.leave(second);
    }
    for (int i = 0; i < 3; i++) {
      assertEquals(null, report(i, second), "left pipelines are gone");
      assertEquals(2, servers.get(i).reports().size());
    }
  }

  /**
   * Lead 1 of issue 44. Block rows are written without RocksDB's WAL: until a snapshot flushes them, a member's Raft
   * log is their only record. Two members acknowledge a block while the third is down, then lose power; one comes
   * back and is told to leave the pipeline (as SCM tells a member of a pipeline it closed) before any leader told it
   * what was committed. It must keep the block's row rather than delete the log that holds it: otherwise no replica
   * has the acknowledged block.
   */
  @Test
  void aMemberLeavingBeforeItReplaysKeepsTheBlocksItsLogHolds() throws Exception {
    PowerCutMember cut = restartAfterPowerCut(44);
    cut.member().leave(cut.pipeline());
    assertEquals(cut.data().length, cut.store().getBlock(cut.block()).getLength(), "the acknowledged block's row");
    assertArrayEquals(cut.data(), cut.store().readChunk(cut.block(), 0, cut.data().length).array());
  }

  /**
   * The same power cut, but SCM's quasi-close of the container reaches the restarted member before it replays its
   * log: once the replica has left OPEN the replay is refused, so the blocks must be recorded before it leaves.
   */
  @Test
  void aMemberQuasiClosingBeforeItReplaysKeepsTheBlocksItsLogHolds() throws Exception {
    PowerCutMember cut = restartAfterPowerCut(45);
    // As SCM sends it, through the datanode's command handler (its close waits for the command to be carried out).
    try (PipelineCommandHandler handler = new PipelineCommandHandler("dn0", cut.member(), cut.store())) {
      handler.submit(ScmCommand.newBuilder().setCloseContainer(CloseContainerCommand.newBuilder()
          .setContainerId(cut.block().getContainerId()).setPipelineId(cut.pipeline()).setQuasi(true)).build());
    }
    assertEquals(ContainerState.CONTAINER_QUASI_CLOSED, cut.store().state(cut.block().getContainerId()));
    assertEquals(cut.data().length, cut.store().getBlock(cut.block()).getLength(), "the acknowledged block's row");
    assertArrayEquals(cut.data(), cut.store().readChunk(cut.block(), 0, cut.data().length).array());
  }

  /** A member restarted after a power cut, the acknowledged block whose row only its log holds, and its bytes. */
  private record PowerCutMember(RatisPipelines member, ContainerStore store, PipelineId pipeline, BlockId block,
      byte[] data) {
  }

  /**
   * Two members acknowledge a block while the third is down, then lose power (RocksDB's unflushed rows with it, no
   * snapshot taken); the first comes back, with no leader to tell it what was committed.
   */
  private PowerCutMember restartAfterPowerCut(long seed) throws Exception {
    // A snapshot when a server stops would flush the rows: a power cut takes none.
    Map<String, String> powerCut = Map.of("raft.server.snapshot.trigger-when-stop.enabled", "false");
    startAll(powerCut);
    PipelineId pipeline = pipeline();
    create(pipeline, 0);
    awaitLeader(pipeline, 0);
    servers.get(2).close();
    BlockId block = BlockId.newBuilder().setContainerId(1).setLocalId(1).build();
    byte[] data = new byte[4096];
    new Random(seed).nextBytes(data);
    ContainerCommandResponse written = writeBlock(pipeline, block, data);
    assertEquals(DatanodeResult.OK, written.getResult(), written.getMessage());
    for (int i = 0; i < 2; i++) {
      servers.get(i).close();
      stores.get(i).closeAsCrashed();
    }
    ContainerStore restarted = store(0);
    RatisPipelines member = startServer(0, restarted, powerCut);
    servers.set(0, member);
    return new PowerCutMember(member, restarted, pipeline, block, data);
  }

  /** Writes {@code data} as a whole block (one chunk that commits it) through the pipeline's leader. */
  private ContainerCommandResponse writeBlock(PipelineId pipeline, BlockId block, byte[] data) throws Exception {
    ContainerCommand command = ContainerCommand.newBuilder().setWriteChunk(WriteChunk.newBuilder().setBlockId(block)
        .setLength(data.length).setChecksums(Checksums.compute(ByteBuffer.wrap(data), 1024))
        .setCommit(PutBlock.newBuilder().setBlockId(block).setLength(data.length)
            .setChecksums(Checksums.compute(ByteBuffer.wrap(data), 1024)))).build();
    byte[] bytes = command.toByteArray();
    ByteBuffer message = ByteBuffer.allocate(4 + bytes.length + data.length).putInt(bytes.length).put(bytes)
        .put(data).flip();
    List<RaftPeer> peers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      peers.add(RaftPeer.newBuilder().setId(ids.get(i).toString()).setAddress("127.0.0.1:" + ports.get(i)).build());
    }
    try (RaftClient client = RaftClient.newBuilder().setProperties(new RaftProperties())
        .setRaftGroup(RaftGroup.valueOf(RatisPipelines.groupIdOf(pipeline), peers)).build()) {
      RaftClientReply reply = client.io().send(Message.valueOf(ByteString.copyFrom(message)));
      assertTrue(reply.isSuccess(), reply.toString());
      return ContainerCommandResponse.parseFrom(reply.getMessage().getContent().toByteArray());
    }
  }
}
