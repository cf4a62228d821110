package org.tropos.client.internal.ratis;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.proto.RaftProtos.CommitInfoProto;
import org.apache.ratis.proto.RaftProtos.RaftClientRequestProto.TypeCase;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.StateMachineException;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.TimeDuration;
import org.tropos.common.conf.ClientKeys;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.ratis.RaftTls;
import org.tropos.common.rpc.RaftRefusal;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.datanode.ContainerCommandResponse;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.PortName;

/**
 * Writes to one pipeline through its Raft group with the async Ratis client: chunk bytes go as the tail of the
 * message (the datanodes turn them into stateMachineData, kept out of the RaftLog), commits are PutBlocks, and
 * {@link #watch} waits until an entry is committed on every replica (or a majority). Every Raft reply carries the
 * leader's view of each member's commit index; {@link #watch} answers from the latest one seen when it already
 * covers the entry (always so on a single-member pipeline, whose write reply comes after the commit), saving a
 * round trip. Writes and watches go through Ratis clients of their own, replaced as {@link RaftClientGenerations}
 * says.
 *
 * <p>Thread-safety: the Ratis client is thread-safe; calls may be issued concurrently.
 */
public final class PipelineClient implements AutoCloseable {
  /** A datanode's answer with the Raft log index of the entry that carried the command. */
  public record Reply(ContainerCommandResponse response, long logIndex) {
  }

  private static final int MAX_OUTSTANDING_REQUESTS = 16;
  /** Watches sent through one Ratis client before it is replaced (see {@link RaftClientGenerations}). */
  private static final int WATCHES_PER_CLIENT = 4096;

  private final UUID pipeline;
  private final RaftClientGenerations writeClients;
  private final InProcessLeader inProcessLeader;
  private final RaftClientGenerations watchClients;
  private final List<ByteString> memberIds;
  /** Each member's commit index as last reported in a reply (keyed by Raft peer id). */
  private final Map<ByteString, Long> commitIndexes = new ConcurrentHashMap<>();

  /** With the default timeouts, in plaintext. */
  public PipelineClient(UUID pipeline, List<DatanodeDetails> members, UUID leaderHint) {
    this(pipeline, members, leaderHint, TransportSecurity.plaintext());
  }

  /** With the default timeouts, reaching the datanodes as {@code transport} says. */
  public PipelineClient(UUID pipeline, List<DatanodeDetails> members, UUID leaderHint,
      TransportSecurity transport) {
    this(pipeline, members, leaderHint, Configuration.defaults().get(ClientKeys.RATIS_WRITE_TIMEOUT),
        Configuration.defaults().get(ClientKeys.RATIS_WATCH_TIMEOUT), transport);
  }

  /**
   * @param writeTimeout how long a write is retried before it fails (Ratis retries forever by default, so a
   *     pipeline that cannot commit would hold its writers for good)
   * @param watchTimeout the same for a wait on replicas
   * @param transport TLS to the datanodes in a secure cluster (trusting only datanodes of the cluster)
   */
  public PipelineClient(UUID pipeline, List<DatanodeDetails> members, UUID leaderHint, Duration writeTimeout,
      Duration watchTimeout, TransportSecurity transport) {
    this.pipeline = pipeline;
    List<RaftPeer> peers = new ArrayList<>();
    for (DatanodeDetails member : members) {
      peers.add(RaftPeer.newBuilder().setId(Uuids.fromProto(member.getUuid()).toString())
          .setAddress(ratisAddress(member)).build());
    }
    this.memberIds = peers.stream().map(peer -> peer.getId().toByteString()).toList();
    RaftProperties properties = new RaftProperties();
    // At most this many requests in flight per pipeline from this process; the next writer waits.
    RaftClientConfigKeys.Async.setOutstandingRequestsMax(properties, MAX_OUTSTANDING_REQUESTS);
    RetryPolicy retries = new RefusalsNotRetried(RequestTypeDependentRetryPolicy.newBuilder()
        .setTimeout(TypeCase.WRITE, TimeDuration.valueOf(writeTimeout.toMillis(), TimeUnit.MILLISECONDS))
        .setTimeout(TypeCase.WATCH, TimeDuration.valueOf(watchTimeout.toMillis(), TimeUnit.MILLISECONDS))
        .build());
    RaftGroup group = RaftGroup.valueOf(RaftGroupId.valueOf(pipeline), peers);
    Parameters tls = RaftTls.client(transport, ServiceRole.DATANODE);
    this.writeClients = new RaftClientGenerations(() -> newClient(properties, tls, retries, group, leaderHint),
        Long.MAX_VALUE, true);
    this.inProcessLeader = new InProcessLeader(group.getGroupId(),
        members.stream().map(member -> DatanodeAddresses.of(member, PortName.RATIS)).toList(), writeTimeout);
    this.watchClients = new RaftClientGenerations(() -> newClient(properties, tls, retries, group, leaderHint),
        WATCHES_PER_CLIENT, false);
  }

  private static RaftClient newClient(RaftProperties properties, Parameters tls, RetryPolicy retries,
      RaftGroup group, UUID leaderHint) {
    RaftClient.Builder builder = RaftClient.newBuilder().setProperties(properties).setRetryPolicy(retries)
        .setRaftGroup(group).setClientRpc(new GrpcFactory(tls).newRaftClientRpc(ClientId.randomId(), properties));
    if (leaderHint != null) {
      builder.setLeaderId(RaftPeerId.valueOf(leaderHint.toString()));
    }
    return builder.build();
  }

  public UUID pipeline() {
    return pipeline;
  }

  /**
   * Sends a chunk; {@code data} (position to limit) is not copied and must never change afterwards: a leader in this
   * JVM keeps it past the reply for followers that fall behind ({@link InProcessLeader}).
   * {@code token}: the block's WRITE token in a secure cluster (as the OM handed it out), else the default instance.
   */
  public CompletableFuture<Reply> writeChunk(BlockId block, BlockToken token, long offset, ByteBuffer data,
      ChecksumData checksums) {
    return send(ContainerCommand.newBuilder().setWriteChunk(chunk(block, offset, data, checksums)).setToken(token)
        .build(), UnsafeByteOperations.unsafeWrap(data.duplicate()), false);
  }

  /**
   * Sends a block's last chunk together with the block's commit ({@code blockLength} bytes with
   * {@code blockChecksums}, as {@link #putBlock}): one Raft entry instead of two. A whole block in one entry
   * ({@code offset} 0) goes straight to a leader in this JVM ({@link InProcessLeader}) when there is one.
   * {@code data} as for {@link #writeChunk}.
   */
  public CompletableFuture<Reply> writeLastChunk(BlockId block, BlockToken token, long offset, ByteBuffer data,
      ChecksumData checksums, long blockLength, ChecksumData blockChecksums) {
    WriteChunk.Builder chunk = chunk(block, offset, data, checksums).setCommit(putBlockCommand(block, blockLength,
        blockChecksums));
    return send(ContainerCommand.newBuilder().setWriteChunk(chunk).setToken(token).build(),
        UnsafeByteOperations.unsafeWrap(data.duplicate()), offset == 0);
  }

  private static WriteChunk.Builder chunk(BlockId block, long offset, ByteBuffer data, ChecksumData checksums) {
    return WriteChunk.newBuilder().setBlockId(block).setOffset(offset).setLength(data.remaining())
        .setChecksums(checksums);
  }

  private static PutBlock.Builder putBlockCommand(BlockId block, long length, ChecksumData checksums) {
    return PutBlock.newBuilder().setBlockId(block).setLength(length).setChecksums(checksums);
  }

  public CompletableFuture<Reply> putBlock(BlockId block, BlockToken token, long length, ChecksumData checksums) {
    return send(ContainerCommand.newBuilder().setPutBlock(putBlockCommand(block, length, checksums))
        .setToken(token).build(), ByteString.EMPTY, false);
  }

  /** Completes when the entry at {@code logIndex} is committed at {@code level} (ALL_COMMITTED or MAJORITY). */
  public CompletableFuture<Void> watch(long logIndex, ReplicationLevel level) {
    int needed = level == ReplicationLevel.ALL_COMMITTED ? memberIds.size() : memberIds.size() / 2 + 1;
    if (membersCommitted(logIndex) >= needed) {
      return CompletableFuture.completedFuture(null);
    }
    return watchClients.send(c -> c.async().watch(logIndex, level)).thenAccept(reply -> {
      if (!reply.isSuccess()) {
        throw new CompletionException(failure("watch of entry " + logIndex, reply));
      }
      remember(reply);
    });
  }

  private int membersCommitted(long logIndex) {
    int committed = 0;
    for (ByteString member : memberIds) {
      if (commitIndexes.getOrDefault(member, 0L) >= logIndex) {
        committed++;
      }
    }
    return committed;
  }

  private void remember(RaftClientReply reply) {
    for (CommitInfoProto info : reply.getCommitInfos()) {
      commitIndexes.merge(info.getServer().getId(), info.getCommitIndex(), Math::max);
    }
  }

  /**
   * Sends {@code command} with {@code data} as its tail. {@code wholeBlock}: the entry writes and commits a block
   * alone, so it may go to a leader in this JVM first; what the Ratis client would retry there (leadership moved,
   * the leader busy or gone) is sent again through it. Sending it twice is safe: no other entry of the block can
   * come between the two, and a block written and committed again with the same bytes is the same block.
   */
  private CompletableFuture<Reply> send(ContainerCommand command, ByteString data, boolean wholeBlock) {
    byte[] header = command.toByteArray();
    Message message = Message.valueOf(ByteString.copyFrom(ByteBuffer.allocate(4 + header.length)
        .putInt(header.length).put(header).flip()).concat(data));
    CompletableFuture<RaftClientReply> local = wholeBlock ? inProcessLeader.write(message) : null;
    CompletableFuture<RaftClientReply> replied = local == null ? writeClients.send(c -> c.async().send(message))
        : local.handle((reply, failure) -> retried(reply, failure) ? writeClients.send(c -> c.async().send(message))
            : local)
            .thenCompose(reply -> reply);
    return replied.handle((reply, failure) -> {
      if (failure != null) {
        throw new CompletionException(RefusalsNotRetried.asRefusal(failure));
      }
      if (!reply.isSuccess()) {
        throw new CompletionException(failure(command.getCommandCase().toString(), reply));
      }
      remember(reply);
      ContainerCommandResponse response = parse(reply);
      if (response.getResult() != DatanodeResult.OK) {
        throw new CompletionException(new DatanodeException(response.getResult(), response.getMessage()));
      }
      return new Reply(response, reply.getLogIndex());
    });
  }

  /**
   * Whether the Ratis client would send a write again after this outcome in this JVM: not after a success, the
   * state machine's refusal or a write that took the whole write timeout.
   */
  private static boolean retried(RaftClientReply reply, Throwable failure) {
    if (failure != null) {
      return !(failure instanceof TimeoutException);
    }
    return !reply.isSuccess() && !(reply.getException() instanceof StateMachineException);
  }

  private static ContainerCommandResponse parse(RaftClientReply reply) {
    try {
      return ContainerCommandResponse.parseFrom(reply.getMessage().getContent().toByteArray());
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new CompletionException(new IOException("unreadable datanode reply", e));
    }
  }

  private DatanodeException failure(String what, RaftClientReply reply) {
    if (reply.getException() instanceof StateMachineException e && e.getCause() instanceof RaftRefusal refusal) {
      return refusal.toDatanodeException();
    }
    return new DatanodeException(DatanodeResult.IO_ERROR, what + " on pipeline " + pipeline + " failed: "
        + reply.getException(), reply.getException());
  }

  private static String ratisAddress(DatanodeDetails member) {
    return DatanodeAddresses.of(member, PortName.RATIS).toString();
  }

  @Override
  public void close() throws IOException {
    watchClients.close();
    writeClients.close();
  }
}
