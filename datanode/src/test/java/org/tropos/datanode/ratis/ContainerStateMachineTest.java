package org.tropos.datanode.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.StateMachineEntryProto;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.RaftRefusal;
import org.tropos.common.security.BlockTokens;
import org.tropos.common.security.FixedKeyRing;
import org.tropos.common.security.SecretKey;
import org.tropos.common.util.ManualClock;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.CloseContainer;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.datanode.ContainerCommandResponse;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineId;

/**
 * Applying entries: an outcome every replica reaches alike is answered and the log moves on; a failure of this
 * replica's own disk stops the group member instead, the entry unapplied and the container UNHEALTHY. A log
 * flush forces the chunk bytes of the entries it covers.
 */
class ContainerStateMachineTest {
  private static final RaftGroupId GROUP = RaftGroupId.randomId();

  @TempDir
  Path root;
  private ContainerStore store;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private ContainerStateMachine machine;

  @BeforeEach
  void start() throws Exception {
    VolumeSet volumes = new VolumeSet("dn", List.of(root.resolve("d1")), List.of(root.resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    store = new ContainerStore("dn", "CID-1", volumes.dataVolumes());
    store.open();
    store.create(1, PipelineId.newBuilder().setId(Uuids.toProto(GROUP.getUuid())).build());
    machine = new ContainerStateMachine(store, BlockAccess.OPEN, GROUP, Runnable::run, registry);
  }

  @AfterEach
  void stop() {
    store.close();
  }

  @Test
  void commitLatencyIsTimedPerPipelineOnTheLeaderOnlyAndGoesWithTheGroup() throws Exception {
    BlockId id = block(7);
    byte[] data = new byte[1024];
    apply(5, putBlock(id, data.length, written(id, data)));
    Timer commits = registry.get("datanode.raft.commit").tag("pipeline", GROUP.getUuid().toString()).timer();
    assertEquals(0, commits.count(), "a follower's apply is not a commit it started");
    machine.close();
    assertTrue(registry.find("datanode.raft.commit").timers().isEmpty());
  }

  private static BlockId block(long local) {
    return BlockId.newBuilder().setContainerId(1).setLocalId(local).build();
  }

  private ChecksumData written(BlockId id, byte[] data) throws Exception {
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), 16 * 1024);
    store.writeChunk(id, 0, ByteBuffer.wrap(data), sums);
    return sums;
  }

  private ContainerCommandResponse apply(long index, ContainerCommand command) throws Exception {
    LogEntryProto entry = LogEntryProto.newBuilder().setTerm(1).setIndex(index)
        .setStateMachineLogEntry(StateMachineLogEntryProto.newBuilder()
            .setLogData(ByteString.copyFrom(command.toByteArray())))
        .build();
    TransactionContext trx = TransactionContext.newBuilder().setStateMachine(machine)
        .setServerRole(RaftPeerRole.FOLLOWER).setLogEntry(entry).build();
    return ContainerCommandResponse.parseFrom(machine.applyTransaction(trx).get().getContent().toByteArray());
  }

  private static ContainerCommand putBlock(BlockId id, long length, ChecksumData sums) {
    return ContainerCommand.newBuilder().setPutBlock(PutBlock.newBuilder().setBlockId(id).setLength(length)
        .setChecksums(sums)).build();
  }

  @Test
  void aFailedDiskStopsTheMemberWithTheEntryUnappliedAndTheContainerUnhealthy() throws Exception {
    byte[] data = new byte[40_000];
    ChecksumData sums = written(block(1), data);
    assertEquals(DatanodeResult.OK, apply(5, putBlock(block(1), data.length, sums)).getResult());
    assertEquals(5, machine.getLastAppliedTermIndex().getIndex());

    // Block 2's file cannot be opened for its commit, as when its disk fails under it.
    Path file = store.planRead(block(1), 0, 1).file().resolveSibling("2.block");
    Files.createDirectories(file);
    IllegalStateException stop = assertThrows(IllegalStateException.class,
        () -> apply(6, putBlock(block(2), data.length, sums)));
    assertTrue(stop.getMessage().startsWith("fail-stop: log entry 6"), stop.getMessage());
    assertEquals(5, machine.getLastAppliedTermIndex().getIndex(), "the entry is not counted as applied");
    assertEquals(ContainerState.CONTAINER_UNHEALTHY, store.containers().get(0).getState());
  }

  /** A PutBlock whose apply fails here (its named fault point) stops the member as a failed disk does. */
  @Test
  void aFaultAtPutBlockApplyStopsTheMemberWithTheEntryUnapplied() throws Exception {
    byte[] data = new byte[40_000];
    assertEquals(DatanodeResult.OK, apply(4, putBlock(block(1), data.length, written(block(1), data))).getResult());
    ChecksumData sums = written(block(2), data);
    try (FaultPoints.Armed armed = FaultPoints.arm(FaultPoints.PUT_BLOCK_APPLY, FaultPoints.failing())) {
      IllegalStateException stop = assertThrows(IllegalStateException.class,
          () -> apply(5, putBlock(block(2), data.length, sums)));
      assertTrue(stop.getMessage().contains("fault injected at datanode.putblock.apply"), stop.getMessage());
    }
    assertEquals(4, machine.getLastAppliedTermIndex().getIndex(), "the entry is not counted as applied");
    assertEquals(ContainerState.CONTAINER_UNHEALTHY, store.containers().get(0).getState());
    assertThrows(DatanodeException.class, () -> store.getBlock(block(2)), "the block was never committed");
  }

  @Test
  void anOutcomeEveryReplicaReachesIsAnsweredAndTheLogMovesOn() throws Exception {
    store.setState(1, ContainerState.CONTAINER_CLOSED);
    byte[] data = new byte[100];
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), 16 * 1024);
    assertEquals(DatanodeResult.CONTAINER_NOT_OPEN, apply(7, putBlock(block(3), data.length, sums)).getResult());
    assertEquals(7, machine.getLastAppliedTermIndex().getIndex());
    assertEquals(ContainerState.CONTAINER_CLOSED, store.containers().get(0).getState());
  }

  /**
   * A CloseContainer entry reaches a replica a check marked UNHEALTHY: it is answered and the log moves on, but
   * the replica stays UNHEALTHY; closed, a copy known to be wrong would count as a sound one.
   */
  @Test
  void aCloseEntryLeavesAnUnhealthyReplicaUnhealthy() throws Exception {
    store.markUnhealthy(1, "a scrub found block 3 corrupt");
    ContainerCommand close = ContainerCommand.newBuilder().setCloseContainer(CloseContainer.newBuilder()
        .setContainerId(1)).build();
    ContainerCommandResponse response = apply(8, close);
    assertEquals(DatanodeResult.INVALID_REQUEST, response.getResult());
    assertTrue(response.getMessage().contains("is CONTAINER_UNHEALTHY and cannot become CONTAINER_CLOSED"),
        response.getMessage());
    assertEquals(8, machine.getLastAppliedTermIndex().getIndex());
    assertEquals(ContainerState.CONTAINER_UNHEALTHY, store.containers().get(0).getState());
    assertEquals("a scrub found block 3 corrupt", store.containers().get(0).getUnhealthyReason());
  }

  /**
   * A member cut off from its peers quasi-closed its replica (SCM declared the pipeline gone) short of a block, then
   * caught up with the log: the block's PutBlock is refused, and the CloseContainer after it must not make CLOSED a
   * replica without that block (found by the control-plane simulation); SCM closes it only if it is whole.
   */
  @Test
  void aCloseEntryLeavesAQuasiClosedReplicaToScm() throws Exception {
    store.quasiClose(1);
    byte[] data = new byte[100];
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), 16 * 1024);
    assertEquals(DatanodeResult.CONTAINER_NOT_OPEN, apply(7, putBlock(block(3), data.length, sums)).getResult());
    ContainerCommand close = ContainerCommand.newBuilder().setCloseContainer(CloseContainer.newBuilder()
        .setContainerId(1)).build();
    assertEquals(DatanodeResult.OK, apply(8, close).getResult());
    assertEquals(8, machine.getLastAppliedTermIndex().getIndex());
    assertEquals(ContainerState.CONTAINER_QUASI_CLOSED, store.containers().get(0).getState());
  }

  private static LogEntryProto chunkEntry(long index, BlockId id, byte[] data) {
    ContainerCommand command = ContainerCommand.newBuilder().setWriteChunk(WriteChunk.newBuilder().setBlockId(id)
        .setOffset(0).setLength(data.length).setChecksums(Checksums.compute(ByteBuffer.wrap(data), 16 * 1024)))
        .build();
    return LogEntryProto.newBuilder().setTerm(1).setIndex(index).setStateMachineLogEntry(
        StateMachineLogEntryProto.newBuilder().setLogData(ByteString.copyFrom(command.toByteArray()))
            .setStateMachineEntry(StateMachineEntryProto.newBuilder().setStateMachineData(ByteString.copyFrom(data))))
        .build();
  }

  private Path blockFile(long local) throws Exception {
    try (Stream<Path> files = Files.walk(root.resolve("d1"))) {
      return files.filter(f -> f.getFileName().toString().equals(local + ".block")).findFirst().orElseThrow();
    }
  }

  @Test
  void aLogFlushForcesTheChunksOfItsEntriesAndFailsWhenItCannot() throws Exception {
    machine.write(chunkEntry(3, block(4), new byte[5000]), null).get();
    machine.write(chunkEntry(4, block(5), new byte[5000]), null).get();
    // Deleted since it was written (SCM's block deletion): nothing left to force.
    Files.delete(blockFile(5));
    machine.flush(4).get();

    machine.write(chunkEntry(5, block(6), new byte[5000]), null).get();
    // Block 6's file cannot be forced, as when its disk fails: the flush fails, so Ratis does not count the entry
    // as written (and stops this member) rather than acknowledging bytes that may not be on disk.
    Path file = blockFile(6);
    Files.delete(file);
    Files.createDirectories(file);
    ExecutionException failed = assertThrows(ExecutionException.class, () -> machine.flush(5).get());
    assertTrue(failed.getCause().getMessage().startsWith("cannot force chunk bytes to disk"),
        failed.getCause().getMessage());
  }

  private static RaftClientRequest request(ContainerCommand command, byte[] data) {
    byte[] bytes = command.toByteArray();
    ByteBuffer message = ByteBuffer.allocate(4 + bytes.length + data.length).putInt(bytes.length).put(bytes)
        .put(data).flip();
    return RaftClientRequest.newBuilder().setClientId(ClientId.randomId()).setServerId(RaftPeerId.valueOf("dn"))
        .setGroupId(GROUP).setCallId(1).setMessage(Message.valueOf(ByteString.copyFrom(message)))
        .setType(RaftClientRequest.writeRequestType()).build();
  }

  /** A secure cluster's leader takes a command only with a WRITE token for what it changes; the log keeps none. */
  @Test
  void aSecureLeaderTakesCommandsOnlyWithTheirWriteToken() throws Exception {
    ManualClock clock = new ManualClock();
    BlockTokens tokens = BlockTokens.signedWith(new FixedKeyRing(SecretKey.generate(clock.wallTime(),
        Duration.ofDays(2))), Duration.ofHours(1), clock);
    ContainerStateMachine secure = new ContainerStateMachine(store, new BlockAccess(tokens, "dn"), GROUP,
        Runnable::run, registry);
    byte[] data = new byte[1000];
    WriteChunk.Builder chunk = WriteChunk.newBuilder().setBlockId(block(9)).setLength(data.length)
        .setChecksums(Checksums.compute(ByteBuffer.wrap(data), 16 * 1024));
    BlockToken write = tokens.issue("alice", block(9), List.of(AccessMode.ACCESS_WRITE));
    List<ContainerCommand> refused = List.of(
        ContainerCommand.newBuilder().setWriteChunk(chunk).build(),
        ContainerCommand.newBuilder().setWriteChunk(chunk).setToken(tokens.issue("alice", block(9),
            List.of(AccessMode.ACCESS_READ))).build(),
        ContainerCommand.newBuilder().setWriteChunk(chunk.clone().setBlockId(block(10))).setToken(write).build(),
        ContainerCommand.newBuilder().setCloseContainer(CloseContainer.newBuilder().setContainerId(1))
            .setToken(write).build());
    for (ContainerCommand command : refused) {
      Exception refusal = secure.startTransaction(request(command, command.hasWriteChunk() ? data : new byte[0]))
          .getException();
      assertTrue(refusal instanceof RaftRefusal && refusal.getMessage().startsWith("BLOCK_TOKEN_VERIFICATION_FAILED"),
          String.valueOf(refusal));
    }
    TransactionContext taken = secure.startTransaction(request(ContainerCommand.newBuilder().setWriteChunk(chunk)
        .setToken(write).build(), data));
    ContainerCommand logged = ContainerCommand.parseFrom(taken.getStateMachineLogEntry().getLogData().toByteArray());
    assertEquals(null, taken.getException());
    assertEquals(chunk.build(), logged.getWriteChunk());
    assertFalse(logged.hasToken(), "the log keeps no token");
    secure.close();
  }
}
