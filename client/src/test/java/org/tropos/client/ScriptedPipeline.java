package org.tropos.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.TimeDuration;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.RaftRefusal;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.datanode.ContainerCommandResponse;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PipelineId;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.scm.PipelineInfo;
import org.tropos.proto.scm.PipelineMember;

/**
 * A datanode hosting one single-member pipeline, played by a real Ratis server on loopback whose state machine is
 * scripted: it takes each command as the datanode's does (a 4-byte length, the {@link ContainerCommand}, the
 * chunk's bytes), keeps every chunk and commit per block, and refuses, before the log, what its script says, as a
 * datanode refuses (a {@link RaftRefusal} naming the result).
 */
final class ScriptedPipeline implements AutoCloseable {
  final UUID datanode = UUID.randomUUID();
  final UUID id = UUID.randomUUID();
  /** Per block, its chunks applied by offset. */
  private final Map<BlockId, TreeMap<Long, byte[]>> chunks = new ConcurrentHashMap<>();
  /** Per block, the lengths its commits gave, in order. */
  private final Map<BlockId, List<Long>> commits = new ConcurrentHashMap<>();
  /** Containers whose writes are refused with CONTAINER_NOT_OPEN, and after how many more chunks. */
  private final Map<Long, Integer> closingAfter = new ConcurrentHashMap<>();
  private final Set<Long> closed = ConcurrentHashMap.newKeySet();
  private final int port;
  private final RaftServer server;

  ScriptedPipeline(Path storage) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    RaftProperties properties = new RaftProperties();
    RaftServerConfigKeys.setStorageDir(properties, List.of(storage.toFile()));
    GrpcConfigKeys.Server.setPort(properties, port);
    // A lone member elects itself after one timeout: short, so that the first write does not wait long.
    RaftServerConfigKeys.Rpc.setTimeoutMin(properties, TimeDuration.valueOf(100, TimeUnit.MILLISECONDS));
    RaftServerConfigKeys.Rpc.setTimeoutMax(properties, TimeDuration.valueOf(200, TimeUnit.MILLISECONDS));
    RaftPeer self = RaftPeer.newBuilder().setId(datanode.toString()).setAddress("127.0.0.1:" + port).build();
    server = RaftServer.newBuilder().setServerId(self.getId())
        .setGroup(RaftGroup.valueOf(RaftGroupId.valueOf(id), self)).setProperties(properties)
        .setStateMachine(new Scripted()).setOption(RaftStorage.StartupOption.FORMAT).build();
    server.start();
  }

  /** The pipeline as SCM hands it to a writer: this datanode, leading. */
  PipelineInfo info() {
    DatanodeDetails details = DatanodeDetails.newBuilder().setUuid(Uuids.toProto(datanode)).setHostName("localhost")
        .setIpAddress("127.0.0.1").addPorts(Port.newBuilder().setName(PortName.RATIS).setValue(port)).build();
    return PipelineInfo.newBuilder().setId(PipelineId.newBuilder().setId(Uuids.toProto(id)))
        .addMembers(PipelineMember.newBuilder().setDatanode(details)).setLeader(Uuids.toProto(datanode)).build();
  }

  /** Container {@code container} takes {@code chunks} more chunks, then refuses every write as closed. */
  void closeContainerAfter(long container, int chunks) {
    closingAfter.put(container, chunks);
  }

  /** The first {@code length} bytes of {@code block} as its applied chunks hold them. */
  byte[] bytes(BlockId block, long length) {
    ByteBuffer out = ByteBuffer.allocate((int) length);
    for (Map.Entry<Long, byte[]> chunk : chunks.getOrDefault(block, new TreeMap<>()).entrySet()) {
      if (chunk.getKey() != out.position()) {
        throw new AssertionError("block " + block.getLocalId() + " has a chunk at " + chunk.getKey()
            + " after " + out.position() + " bytes");
      }
      out.put(chunk.getValue(), 0, Math.min(chunk.getValue().length, out.remaining()));
      if (!out.hasRemaining()) {
        break;
      }
    }
    return out.array();
  }

  /** The offsets of the chunks applied to {@code block}. */
  List<Long> chunkOffsets(BlockId block) {
    return new ArrayList<>(chunks.getOrDefault(block, new TreeMap<>()).keySet());
  }

  /** The lengths the commits of {@code block} gave, in order. */
  List<Long> commits(BlockId block) {
    return commits.getOrDefault(block, List.of());
  }

  @Override
  public void close() throws IOException {
    server.close();
  }

  private static ContainerCommand command(ByteString content) throws IOException {
    int length = content.substring(0, 4).asReadOnlyByteBuffer().getInt();
    return ContainerCommand.parseFrom(content.substring(4, 4 + length).toByteArray());
  }

  private final class Scripted extends BaseStateMachine {
    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
      ContainerCommand command = command(request.getMessage().getContent());
      BlockId block = command.hasWriteChunk() ? command.getWriteChunk().getBlockId()
          : command.getPutBlock().getBlockId();
      if (command.hasWriteChunk()) {
        closingAfter.computeIfPresent(block.getContainerId(), (container, left) -> {
          if (left == 0) {
            closed.add(container);
            return null;
          }
          return left - 1;
        });
      }
      if (closed.contains(block.getContainerId())) {
        throw RaftRefusal.of(new DatanodeException(DatanodeResult.CONTAINER_NOT_OPEN, "container "
            + block.getContainerId() + " is CLOSED"));
      }
      return super.startTransaction(request);
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
      ByteString content = trx.getLogEntry().getStateMachineLogEntry().getLogData();
      long index = trx.getLogEntry().getIndex();
      ContainerCommandResponse.Builder response = ContainerCommandResponse.newBuilder()
          .setResult(DatanodeResult.OK);
      try {
        ContainerCommand command = command(content);
        if (command.hasWriteChunk()) {
          WriteChunk chunk = command.getWriteChunk();
          ByteBuffer data = content.substring(content.size() - (int) chunk.getLength()).asReadOnlyByteBuffer();
          if (Checksums.firstMismatch(data.duplicate(), chunk.getChecksums()) >= 0) {
            throw new IOException("chunk at " + chunk.getOffset() + " does not match its checksums");
          }
          byte[] bytes = new byte[data.remaining()];
          data.get(bytes);
          chunks.computeIfAbsent(chunk.getBlockId(), b -> new TreeMap<>()).put(chunk.getOffset(), bytes);
          if (chunk.hasCommit()) {
            commit(chunk.getCommit(), response, index);
          }
        } else {
          commit(command.getPutBlock(), response, index);
        }
      } catch (IOException e) {
        response.setResult(DatanodeResult.IO_ERROR).setMessage(e.getMessage());
      }
      updateLastAppliedTermIndex(trx.getLogEntry().getTerm(), index);
      return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(response.build().toByteArray())));
    }

    private void commit(PutBlock put, ContainerCommandResponse.Builder response, long index) {
      commits.computeIfAbsent(put.getBlockId(), b -> new ArrayList<>()).add(put.getLength());
      response.setBcsid(index);
    }
  }
}
