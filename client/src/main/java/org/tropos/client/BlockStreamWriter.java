package org.tropos.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.ratis.proto.RaftProtos.ReplicationLevel;
import org.apache.ratis.protocol.exceptions.GroupMismatchException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.client.internal.ratis.PipelineClient;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.rpc.ScmBlockClient;
import org.tropos.common.util.ByteBudget;
import org.tropos.common.util.Causes;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Writes a stream of bytes as blocks (ARCHITECTURE.md, "Write path"): chunks go to the block's pipeline
 * asynchronously; every {@code commitEveryChunks} chunks a PutBlock commits what was sent (at the end the last
 * chunk carries the commit itself, so a small object is one Raft entry) and the writer waits until every replica
 * has it (falling back to a majority, with a warning naming the slow pipeline). Only uncommitted chunks stay
 * buffered. On any failure the pipeline is excluded, a new block is allocated and the uncommitted chunks are sent
 * again to it, so nothing acknowledged is lost and nothing unacknowledged is silently dropped: after
 * {@code maxRetries} failures the write fails.
 *
 * <p>Not thread-safe: one writer per stream.
 */
final class BlockStreamWriter implements BlockWriter {
  private static final Logger LOG = LoggerFactory.getLogger(BlockStreamWriter.class);
  /**
   * The first chunk buffer, made at the first write: a small object does not get a whole chunk's worth (the buffer
   * grows to one), an empty one no buffer at all.
   */
  private static final int FIRST_BUFFER = 64 * 1024;

  private final BlockAllocator allocator;
  private final BlockWriteSettings settings;
  private final PipelineClients pipelines;
  /** Holds the capacity of {@link #chunk} and of every buffer in {@link #uncommitted}. */
  private final ByteBudget.Share buffers;
  private final ExcludeList.Builder exclude = ExcludeList.newBuilder();
  private final List<BlockLocation> written = new ArrayList<>();
  private final List<ByteBuffer> uncommitted = new ArrayList<>();
  private long uncommittedCapacity;
  private final List<CompletableFuture<PipelineClient.Reply>> inFlight = new ArrayList<>();
  /** The in-flight chunk that also commits its block, if the last one sent does. */
  private CompletableFuture<PipelineClient.Reply> carriedCommit;
  private ByteBuffer chunk;
  private AllocateBlockResponse block;
  private PipelineClient client;
  private long sent;
  private long committed;
  private ChecksumData blockSums = ChecksumData.getDefaultInstance();
  private int failures;

  /** Raw blocks from SCM. */
  public BlockStreamWriter(ScmBlockClient scm, PipelineClients pipelines, BlockWriteSettings settings) {
    this(BlockAllocator.of(scm), pipelines, settings);
  }

  /** @param pipelines the process's shared pipeline clients (owned by the caller) */
  public BlockStreamWriter(BlockAllocator allocator, PipelineClients pipelines, BlockWriteSettings settings) {
    this.allocator = allocator;
    this.pipelines = pipelines;
    this.settings = settings;
    this.buffers = pipelines.buffers().share(this);
    this.chunk = ByteBuffer.allocate(0);
  }

  @Override
  public void write(ByteBuffer data) throws IOException {
    while (data.hasRemaining()) {
      if (!chunk.hasRemaining()) {
        if (chunk.capacity() < settings.chunkSize()) {
          growChunk();
        } else {
          sendBufferedChunk(false);
        }
      }
      int n = Math.min(chunk.remaining(), data.remaining());
      chunk.put(data.duplicate().limit(data.position() + n));
      data.position(data.position() + n);
    }
  }

  /**
   * Commits everything written and returns the blocks that hold it, in order. Writing may go on afterwards
   * (an hsync): it starts a new block, and the next finish returns the blocks so far again, that one too.
   */
  @Override
  public List<BlockLocation> finish() throws IOException {
    if (chunk.position() > 0) {
      sendBufferedChunk(true);
    }
    if (block != null) {
      if (committed < sent) {
        commitWithRetries();
      }
      written.add(new BlockLocation(block.getBlockId(), committed, block.getToken()));
      block = null;
    }
    return List.copyOf(written);
  }

  /**
   * Sends the buffered chunk; the stream's last chunk also carries its block's commit. The buffer itself goes (kept
   * until committed, for a resend); the next chunk gets a new one.
   */
  private void sendBufferedChunk(boolean last) throws IOException {
    ByteBuffer data = chunk.flip();
    chunk = ByteBuffer.allocate(0);
    if (block != null && sent + data.remaining() > settings.blockSize()) {
      if (committed < sent) {
        commitWithRetries();
      }
      written.add(new BlockLocation(block.getBlockId(), committed, block.getToken()));
      block = null;
    }
    if (block == null) {
      startBlock();
    }
    uncommitted.add(data);
    uncommittedCapacity += data.capacity();
    send(data, last);
    if (last || uncommitted.size() >= settings.commitEveryChunks()) {
      commitWithRetries();
    }
    if (!last) {
      reserve(settings.chunkSize());
      chunk = ByteBuffer.allocate(settings.chunkSize());
    }
  }

  /**
   * Doubles the first chunk's buffer (up to a chunk) as a stream's first bytes come. When the process's write
   * buffers are spent, sends what is buffered as a chunk instead: a writer never waits for room while it holds any.
   */
  private void growChunk() throws IOException {
    int grown = Math.min(Math.max(2 * chunk.capacity(), FIRST_BUFFER), settings.chunkSize());
    if (buffers.tryTake(grown - chunk.capacity())) {
      chunk = ByteBuffer.allocate(grown).put(chunk.flip());
    } else if (chunk.position() > 0) {
      sendBufferedChunk(false);
    } else {
      buffers.take(grown); // holds nothing (a stream's first chunk, nothing uncommitted)
      chunk = ByteBuffer.allocate(grown);
    }
  }

  /**
   * Takes {@code bytes} more from the process's write buffers; when they are spent, commits what this writer holds
   * first (which gives its buffers back), so that it waits for room holding nothing.
   */
  private void reserve(long bytes) throws IOException {
    if (buffers.tryTake(bytes)) {
      return;
    }
    if (!uncommitted.isEmpty()) {
      commitWithRetries();
    }
    buffers.take(bytes);
  }

  private void send(ByteBuffer data, boolean commitsBlock) {
    ChecksumData sums = Checksums.compute(data, settings.bytesPerChecksum());
    long offset = sent;
    blockSums = Checksums.concat(blockSums, sums);
    sent += data.remaining();
    if (commitsBlock) {
      carriedCommit = client.writeLastChunk(block.getBlockId(), block.getToken(), offset, data, sums, sent,
          blockSums);
      inFlight.add(carriedCommit);
    } else {
      inFlight.add(client.writeChunk(block.getBlockId(), block.getToken(), offset, data, sums));
    }
  }

  /** Commits what was sent; on failure moves the uncommitted chunks to a new block and tries again. */
  private void commitWithRetries() throws IOException {
    while (true) {
      try {
        commit();
        return;
      } catch (IOException e) {
        failures++;
        if (failures > settings.maxRetries()) {
          throw new IOException("write failed after " + settings.maxRetries() + " retries: " + e.getMessage(), e);
        }
        boolean containerClosed = e.getCause() instanceof DatanodeException d
            && d.result() == DatanodeResult.CONTAINER_NOT_OPEN;
        LOG.warn("Write to pipeline {} failed ({}); moving {} uncommitted bytes to a new block", pipelineId(),
            e.getMessage(), sent - committed);
        abandonBlock(containerClosed, Causes.any(e, GroupMismatchException.class::isInstance));
      }
    }
  }

  private void commit() throws IOException {
    try {
      for (CompletableFuture<PipelineClient.Reply> f : inFlight) {
        f.get();
      }
      inFlight.clear();
      long index = carriedCommit != null ? carriedCommit.get().logIndex()
          : client.putBlock(block.getBlockId(), block.getToken(), sent, blockSums).get().logIndex();
      carriedCommit = null;
      waitForReplicas(index);
      committed = sent;
      uncommitted.clear();
      buffers.give(uncommittedCapacity);
      uncommittedCapacity = 0;
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while committing a block", e);
    }
  }

  private void waitForReplicas(long index) throws InterruptedException, ExecutionException {
    try {
      client.watch(index, ReplicationLevel.ALL_COMMITTED).get(settings.allCommittedWait().toMillis(),
          TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      LOG.warn("Pipeline {}: not every replica committed entry {} within {}; accepting a majority (slow or lost"
          + " member)", pipelineId(), index, settings.allCommittedWait());
      client.watch(index, ReplicationLevel.MAJORITY_COMMITTED).get();
    }
  }

  /**
   * Keeps the committed part of the current block and resends the rest to a new block: in another container
   * when only the container closed (the pipeline is fine), else on another pipeline.
   */
  private void abandonBlock(boolean containerClosed, boolean pipelineGone) throws IOException {
    inFlight.forEach(f -> f.cancel(false));
    inFlight.clear();
    carriedCommit = null;
    if (containerClosed) {
      exclude.addContainers(block.getBlockId().getContainerId());
    } else {
      exclude.addPipelines(block.getPipeline().getId());
    }
    if (committed > 0) {
      written.add(new BlockLocation(block.getBlockId(), committed, block.getToken()));
    }
    if (pipelineGone) {
      // Only then: the client is shared by every writer of the process, and after anything else (a leader
      // stepping down, a timeout, a refusal) it finds the group's leader again, or replaces its Ratis client, by
      // itself (RaftClientGenerations).
      pipelines.invalidate(client);
    }
    List<ByteBuffer> resend = List.copyOf(uncommitted);
    startBlock();
    for (ByteBuffer data : resend) {
      send(data.duplicate(), false);
    }
  }

  private void startBlock() throws IOException {
    block = allocator.allocate(settings.blockSize(), settings.factor(), exclude.build());
    client = pipelines.get(block.getPipeline());
    sent = 0;
    committed = 0;
    blockSums = ChecksumData.getDefaultInstance();
  }

  private UUID pipelineId() {
    return Uuids.fromProto(block.getPipeline().getId().getId());
  }

  /** Gives this writer's buffers back; the pipeline clients belong to the caller. */
  @Override
  public void close() {
    chunk = ByteBuffer.allocate(0);
    uncommitted.clear();
    uncommittedCapacity = 0;
    buffers.close();
  }
}
