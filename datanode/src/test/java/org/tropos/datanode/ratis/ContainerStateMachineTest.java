package org.tropos.datanode.ratis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.volume.VolumeSet;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.datanode.ContainerCommandResponse;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.PipelineId;

/**
 * Applying entries: an outcome every replica reaches alike is answered and the log moves on; a failure of this
 * replica's own disk stops the group member instead, the entry unapplied and the container UNHEALTHY.
 */
class ContainerStateMachineTest {
  private static final RaftGroupId GROUP = RaftGroupId.randomId();

  @TempDir
  Path root;
  private ContainerStore store;
  private ContainerStateMachine machine;

  @BeforeEach
  void start() throws Exception {
    VolumeSet volumes = new VolumeSet("dn", List.of(root.resolve("d1")), List.of(root.resolve("r")));
    volumes.createDirectories();
    volumes.format(UUID.randomUUID(), "CID-1");
    store = new ContainerStore("dn", "CID-1", volumes.dataVolumes());
    store.open();
    store.create(1, PipelineId.newBuilder().setId(Uuids.toProto(GROUP.getUuid())).build());
    machine = new ContainerStateMachine(store, GROUP, Runnable::run);
  }

  @AfterEach
  void stop() {
    store.close();
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

  @Test
  void anOutcomeEveryReplicaReachesIsAnsweredAndTheLogMovesOn() throws Exception {
    store.setState(1, ContainerState.CONTAINER_CLOSED);
    byte[] data = new byte[100];
    ChecksumData sums = Checksums.compute(ByteBuffer.wrap(data), 16 * 1024);
    assertEquals(DatanodeResult.CONTAINER_NOT_OPEN, apply(7, putBlock(block(3), data.length, sums)).getResult());
    assertEquals(7, machine.getLastAppliedTermIndex().getIndex());
    assertEquals(ContainerState.CONTAINER_CLOSED, store.containers().get(0).getState());
  }
}
