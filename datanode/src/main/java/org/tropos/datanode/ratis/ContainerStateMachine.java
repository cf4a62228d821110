package org.tropos.datanode.ratis;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.metrics.Latency;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.RaftRefusal;
import org.tropos.common.util.HeapPressure;
import org.tropos.common.util.Uuids;
import org.tropos.datanode.container.ContainerStore;
import org.tropos.datanode.security.BlockAccess;
import org.tropos.proto.datanode.ContainerCommand;
import org.tropos.proto.datanode.ContainerCommandResponse;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.PutBlock;
import org.tropos.proto.datanode.WriteChunk;
import org.tropos.proto.datanode.storage.BlockData;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.PipelineId;

/**
 * The state machine of one pipeline's Raft group: containers and blocks (ARCHITECTURE.md, "Write path").
 * A WriteChunk's bytes are Ratis stateMachineData: {@link #write} puts them straight into the block file on
 * every replica, so they never enter the RaftLog. This state machine, not Ratis's log cache, keeps them in memory,
 * and only until their entry is applied (by then a majority has them); {@link #read} serves them to the leader's
 * appenders from there, or from the block file for a follower that lags further. Applying a PutBlock, or a
 * WriteChunk that carries its block's commit, commits the block (bcsid = log index); applying a CloseContainer
 * closes the replica. Since a chunk's bytes are not in the log, they are forced to disk with it: when Ratis
 * flushes the log over their entry ({@link #flush}, so a replica acknowledges an entry only with its bytes on
 * disk), or when a later entry commits a block, whichever comes first (a leader may apply an entry the
 * followers made a majority for before its own log is flushed). One flush forces each block file written since
 * the last once, for every entry it covers. A snapshot flushes the block records, which are written without a
 * WAL: until then the log entries are their record, applied again after a crash.
 *
 * <p>Thread-safety: Ratis applies entries on one thread per group, in log order; data writes run on the chunk
 * executor and complete before their entry is applied.
 */
final class ContainerStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerStateMachine.class);
  private final ContainerStore store;
  private final BlockAccess access;
  private final PipelineId pipeline;
  private final Executor chunkWriters;
  private final MeterRegistry registry;
  private final HeapPressure pressure = HeapPressure.jvm();
  /** Timed on the leader only: a follower applies entries it did not start. */
  private final Timer commits;
  private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
  /**
   * The latest snapshot, kept here: the storage's own lookup races when two log appenders ask at the moment the
   * group's first snapshot appears (Ratis 3.3 throws a NullPointerException that stopped an appender).
   */
  private volatile SnapshotInfo latestSnapshot;
  /** The block each chunk entry wrote to, by log index, until its bytes are forced to disk. */
  private final ConcurrentNavigableMap<Long, BlockId> unforced = new ConcurrentSkipListMap<>();
  /** Chunk bytes by log index, from {@link #write} until the entry is applied or truncated. */
  private final ConcurrentNavigableMap<Long, ByteString> unapplied = new ConcurrentSkipListMap<>();

  ContainerStateMachine(ContainerStore store, BlockAccess access, RaftGroupId group, Executor chunkWriters,
      MeterRegistry registry) {
    this.store = store;
    this.access = access;
    this.pipeline = PipelineId.newBuilder().setId(Uuids.toProto(group.getUuid())).build();
    this.chunkWriters = chunkWriters;
    this.registry = registry;
    this.commits = Latency.timer("datanode.raft.commit", "A pipeline's commands from their arrival at its leader"
        + " to their commit and apply (the replicated write's latency).")
        .tag("pipeline", group.getUuid().toString()).register(registry);
  }

  @Override
  public void close() throws IOException {
    registry.remove(commits);
    super.close();
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
    super.initialize(server, groupId, raftStorage);
    storage.init(raftStorage);
    loadSnapshot();
  }

  @Override
  public void reinitialize() throws IOException {
    loadSnapshot();
  }

  private void loadSnapshot() {
    SingleFileSnapshotInfo snapshot = storage.loadLatestSnapshot();
    latestSnapshot = snapshot;
    if (snapshot != null) {
      updateLastAppliedTermIndex(snapshot.getTermIndex());
    }
  }

  @Override
  public SnapshotInfo getLatestSnapshot() {
    return latestSnapshot;
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  /**
   * Splits the client's message into the command (log data) and, for a WriteChunk, its bytes. A request refused
   * here is answered with the refusal (a StateMachineException the client reads back): thrown instead, it failed
   * the call itself, and Ratis's client sent it again until its write timeout.
   */
  @Override
  public TransactionContext startTransaction(RaftClientRequest request) {
    try {
      return admit(request);
    } catch (IOException e) {
      return TransactionContext.newBuilder().setStateMachine(this).setClientRequest(request).build()
          .setException(e);
    }
  }

  private TransactionContext admit(RaftClientRequest request) throws IOException {
    ByteString content = request.getMessage().getContent();
    int commandLength = content.substring(0, 4).asReadOnlyByteBuffer().getInt();
    // A copy: a substring would keep the whole message, chunk bytes included, alive in Ratis's log cache.
    ByteString commandBytes = ByteString.copyFrom(content.substring(4, 4 + commandLength).toByteArray());
    ContainerCommand command = parse(commandBytes);
    checkToken(command);
    if (command.hasToken()) {
      // Checked here, where the command arrives; replicas apply it without, and the log keeps no token.
      command = command.toBuilder().clearToken().build();
      commandBytes = ByteString.copyFrom(command.toByteArray());
    }
    TransactionContext.Builder trx = TransactionContext.newBuilder().setStateMachine(this)
        .setClientRequest(request).setLogData(commandBytes).setStateMachineContext(Timer.start(registry));
    if (command.hasWriteChunk()) {
      ByteString data = content.substring(4 + commandLength);
      WriteChunk chunk = command.getWriteChunk();
      if (data.size() != chunk.getLength()) {
        throw new IOException("WriteChunk says " + chunk.getLength() + " bytes but carries " + data.size());
      }
      if (chunk.hasCommit() && !chunk.getCommit().getBlockId().equals(chunk.getBlockId())) {
        throw new IOException("a WriteChunk can only commit its own block");
      }
      if (pressure.high()) {
        // The leader refuses a new chunk; the writer takes another pipeline (BlockStreamWriter).
        throw RaftRefusal.of(new DatanodeException(DatanodeResult.DATANODE_BUSY, pressure.reason()));
      }
      try {
        store.checkRoom(chunk.getBlockId().getContainerId());
      } catch (DatanodeException e) {
        throw RaftRefusal.of(e);
      }
      trx.setStateMachineData(data);
    }
    return trx.build();
  }

  /** A command from outside needs a WRITE token for its block, a close one for the container (a datanode's own). */
  private void checkToken(ContainerCommand command) throws RaftRefusal {
    BlockId target = switch (command.getCommandCase()) {
      case WRITE_CHUNK -> command.getWriteChunk().getBlockId();
      case PUT_BLOCK -> command.getPutBlock().getBlockId();
      case CLOSE_CONTAINER -> BlockId.newBuilder().setContainerId(command.getCloseContainer().getContainerId())
          .build();
      case COMMAND_NOT_SET -> null;
    };
    if (target == null) {
      return;
    }
    try {
      access.check(command.getToken(), target, AccessMode.ACCESS_WRITE);
    } catch (DatanodeException e) {
      throw RaftRefusal.of(e);
    }
  }

  @Override
  public CompletableFuture<?> write(LogEntryProto entry, TransactionContext trx) {
    StateMachineLogEntryProto sm = entry.getStateMachineLogEntry();
    ContainerCommand command;
    try {
      command = parse(sm.getLogData());
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (!command.hasWriteChunk()) {
      return CompletableFuture.completedFuture(null);
    }
    WriteChunk chunk = command.getWriteChunk();
    ByteString bytes = sm.getStateMachineEntry().getStateMachineData();
    if (bytes.isEmpty() && chunk.getLength() > 0) {
      // The leader had no bytes to send: the chunk came after its container's close and is refused when applied.
      return CompletableFuture.completedFuture(null);
    }
    unapplied.put(entry.getIndex(), bytes);
    ByteBuffer data = bytes.asReadOnlyByteBuffer();
    return CompletableFuture.runAsync(() -> {
      try {
        store.create(chunk.getBlockId().getContainerId(), pipeline);
        store.writeChunk(chunk.getBlockId(), chunk.getOffset(), data, chunk.getChecksums());
        unforced.put(entry.getIndex(), chunk.getBlockId());
      } catch (DatanodeException e) {
        // A follower may append a chunk after applying its container's close: skip it (failing would fail this
        // member's log); the block's PutBlock then fails the same way on every replica.
        if (e.result() == DatanodeResult.CONTAINER_NOT_OPEN) {
          return;
        }
        // This member cannot append the entry, and its group cannot go on without it if others fail alike: a
        // failed disk marks the replica UNHEALTHY, a full one is reported as without room; either way SCM closes
        // the pipeline, which fails its pending writes, and the writers move on to another.
        if (e.result() == DatanodeResult.IO_ERROR) {
          markUnhealthy(chunk.getBlockId().getContainerId(), "the chunk of log entry " + entry.getIndex()
              + " of pipeline " + Uuids.fromProto(pipeline.getId()) + " could not be written: " + e.getMessage());
        }
        throw new CompletionException(e);
      }
    }, chunkWriters);
  }

  @Override
  public CompletableFuture<ByteString> read(LogEntryProto entry, TransactionContext trx) {
    ByteString cached = unapplied.get(entry.getIndex());
    if (cached != null) {
      return CompletableFuture.completedFuture(cached);
    }
    // Applied, so written here before (Ratis applies an entry only after its data is written).
    WriteChunk chunk;
    try {
      chunk = parse(entry.getStateMachineLogEntry().getLogData()).getWriteChunk();
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    try {
      ByteBuffer data = store.readChunk(chunk.getBlockId(), chunk.getOffset(), (int) chunk.getLength());
      return CompletableFuture.completedFuture(UnsafeByteOperations.unsafeWrap(data));
    } catch (DatanodeException e) {
      if (!store.acceptsWrites(chunk.getBlockId().getContainerId())) {
        // Skipped by write() because it came after the close: every replica refuses it when applying.
        return CompletableFuture.completedFuture(ByteString.EMPTY);
      }
      if (store.wasDeleted(chunk.getBlockId())) {
        // The block was deleted since (SCM's DeleteBlocks): a lagging follower need not write it, and failing here
        // would stop it from ever catching up. Its PutBlock is not committed again.
        return CompletableFuture.completedFuture(ByteString.EMPTY);
      }
      return CompletableFuture.failedFuture(e);
    }
  }

  /** A follower's entries from {@code index} on were replaced by a new leader's: their bytes are not needed. */
  @Override
  public CompletableFuture<Void> truncate(long index) {
    unapplied.tailMap(index, true).clear();
    unforced.tailMap(index, true).clear();
    return CompletableFuture.completedFuture(null);
  }

  /** Ratis is about to flush the log up to {@code index}: the chunk bytes of those entries go to disk first. */
  @Override
  public CompletableFuture<Void> flush(long index) {
    try {
      force(index);
      return CompletableFuture.completedFuture(null);
    } catch (DatanodeException e) {
      return CompletableFuture.failedFuture(new IOException("cannot force chunk bytes to disk: " + e.getMessage(),
          e));
    }
  }

  /**
   * Forces the block files written by entries up to {@code index}, each once. Every write up to there has
   * completed (Ratis flushes and applies an entry only after its write), so none is added behind this.
   */
  private void force(long index) throws DatanodeException {
    List<Map.Entry<Long, BlockId>> written = List.copyOf(unforced.headMap(index, true).entrySet());
    if (written.isEmpty()) {
      return;
    }
    for (BlockId block : written.stream().map(Map.Entry::getValue).distinct().toList()) {
      store.sync(block);
    }
    written.forEach(w -> unforced.remove(w.getKey(), w.getValue()));
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    unapplied.remove(entry.getIndex());
    ContainerCommandResponse response;
    try {
      response = apply(parse(entry.getStateMachineLogEntry().getLogData()), entry.getIndex());
    } catch (IOException e) {
      response = ContainerCommandResponse.newBuilder().setResult(DatanodeResult.INVALID_REQUEST)
          .setMessage(e.getMessage()).build();
    }
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    if (trx.getStateMachineContext() instanceof Timer.Sample started) {
      started.stop(commits);
    }
    return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(
        response.toByteArray())));
  }

  private ContainerCommandResponse apply(ContainerCommand command, long index) {
    ContainerCommandResponse.Builder response = ContainerCommandResponse.newBuilder().setResult(DatanodeResult.OK);
    PutBlock put = committedBlock(command);
    try {
      if (command.hasWriteChunk() && !store.acceptsWrites(command.getWriteChunk().getBlockId().getContainerId())) {
        // Closed before this chunk: the same answer on every replica, whether or not its bytes were written.
        response.setResult(DatanodeResult.CONTAINER_NOT_OPEN).setMessage("container "
            + command.getWriteChunk().getBlockId().getContainerId() + " is not OPEN");
      } else if (put != null) {
        force(index);
        hitPutBlockApply();
        store.putBlock(blockData(put, index));
        response.setBcsid(index);
      } else if (command.hasCloseContainer()) {
        store.closeThroughPipeline(command.getCloseContainer().getContainerId());
      }
    } catch (DatanodeException e) {
      if (isLocalFault(e.result())) {
        throw failStop(command, index, e);
      }
      response.setResult(e.result()).setMessage(e.getMessage());
    }
    return response.build();
  }

  /** The block a command commits (a PutBlock, or a chunk that commits its block), or null. */
  static PutBlock committedBlock(ContainerCommand command) {
    if (command.hasPutBlock()) {
      return command.getPutBlock();
    }
    return command.hasWriteChunk() && command.getWriteChunk().hasCommit() ? command.getWriteChunk().getCommit() : null;
  }

  /** The row a PutBlock applied as log entry {@code index} makes. */
  static BlockData blockData(PutBlock put, long index) {
    return BlockData.newBuilder().setBlockId(put.getBlockId()).setLength(put.getLength())
        .setChecksums(put.getChecksums()).setBcsid(index).build();
  }

  /** The named fault point of a PutBlock's apply: a fault there is this replica's own, as a failed disk is. */
  private static void hitPutBlockApply() throws DatanodeException {
    try {
      FaultPoints.hit(FaultPoints.PUT_BLOCK_APPLY);
    } catch (IOException e) {
      throw new DatanodeException(DatanodeResult.IO_ERROR, e.getMessage());
    }
  }

  /**
   * Whether a failure is this replica's own (its disk or database failed) rather than an outcome every replica
   * reaches alike (a closed container, a deleted block, a bad request).
   */
  private static boolean isLocalFault(DatanodeResult result) {
    return result == DatanodeResult.IO_ERROR || result == DatanodeResult.DISK_FULL
        || result == DatanodeResult.INTERNAL_ERROR;
  }

  /**
   * An entry this replica cannot apply: answering an error and moving on would let it diverge silently from the
   * others, which applied the entry. Instead the container is marked UNHEALTHY (its report makes SCM close the
   * pipeline and replace the replica) and the exception, thrown out of applyTransaction, makes Ratis stop this
   * group member without advancing its applied index (docs/design.md, "Fail-stop on apply").
   */
  private IllegalStateException failStop(ContainerCommand command, long index, DatanodeException cause) {
    long containerId = command.hasPutBlock() ? command.getPutBlock().getBlockId().getContainerId()
        : command.hasWriteChunk() ? command.getWriteChunk().getBlockId().getContainerId()
        : command.getCloseContainer().getContainerId();
    String fault = "log entry " + index + " of pipeline " + Uuids.fromProto(pipeline.getId())
        + " could not be applied: " + cause.getMessage();
    markUnhealthy(containerId, fault);
    return new IllegalStateException("fail-stop: " + fault, cause);
  }

  private void markUnhealthy(long containerId, String fault) {
    try {
      store.markUnhealthy(containerId, fault);
    } catch (DatanodeException e) {
      LOG.error("Container {} could not be marked UNHEALTHY after {}: {}", containerId, fault, e.getMessage());
    }
  }

  @Override
  public long takeSnapshot() throws IOException {
    TermIndex last = getLastAppliedTermIndex();
    try {
      force(last.getIndex());
      store.flushBlockRecords();
    } catch (DatanodeException e) {
      throw new IOException("cannot snapshot before block data and records are on disk: " + e.getMessage(), e);
    }
    File marker = storage.getSnapshotFile(last.getTerm(), last.getIndex());
    if (!marker.exists() && !marker.createNewFile()) {
      throw new IOException("cannot create snapshot file " + marker);
    }
    latestSnapshot = new SingleFileSnapshotInfo(new FileInfo(marker.toPath(), null), last);
    return last.getIndex();
  }

  static ContainerCommand parse(ByteString bytes) throws IOException {
    return ContainerCommand.parseFrom(bytes.toByteArray());
  }
}
