package org.tropos.client.internal;

import org.tropos.common.rpc.ScmBlockClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
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
import org.tropos.client.BlockLocation;
import org.tropos.client.internal.ratis.PipelineClient;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.conf.ClientKeys;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Uuids;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Writes a stream of bytes as blocks (ARCHITECTURE.md, "Write path"): chunks go to the block's pipeline
 * asynchronously; every {@code commitEveryChunks} chunks a PutBlock commits what was sent (at the end the last
 * chunk carries the commit itself, so a small object is one Raft entry), and the commit is confirmed once every
 * replica has it (falling back to a majority, with a warning naming the slow pipeline). The writer goes on sending
 * while one commit is being confirmed and waits for it only when the next is due, so a single stream keeps the
 * pipeline busy instead of stopping for a round of replication every few chunks; at most two commits' worth of
 * chunks stay buffered. On any failure the pipeline is excluded, a new block is allocated and the unconfirmed
 * chunks are sent again to it, so nothing acknowledged is lost and nothing unacknowledged is silently dropped:
 * after {@code maxRetries} failures the write fails.
 *
 * <p>Not thread-safe: one writer per stream.
 */
public final class BlockStreamWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BlockStreamWriter.class);
  /** The first chunk buffer: a small object does not get a whole chunk's worth; the buffer grows to one. */
  private static final int FIRST_BUFFER = 64 * 1024;

  /**
   * How to write.
   *
   * @param blockSize the largest block
   * @param chunkSize bytes per WriteChunk
   * @param bytesPerChecksum bytes per CRC32C
   * @param commitEveryChunks chunks between PutBlocks (twice this many chunks at most are buffered for a resend)
   * @param maxRetries failures tolerated before the write fails
   * @param allCommittedWait how long to wait for every replica before accepting a majority
   */
  public record Settings(long blockSize, int chunkSize, int bytesPerChecksum, int commitEveryChunks, int maxRetries,
      ReplicationFactor factor, Duration allCommittedWait) {
    private static final int COMMIT_EVERY_CHUNKS = 2;
    private static final int MAX_RETRIES = 5;
    private static final Duration ALL_COMMITTED_WAIT = Duration.ofSeconds(10);

    /** The same with blocks of at most {@code max} bytes (a caller's hint), chunks no larger than a block. */
    public Settings withMaxBlockSize(long max) {
      long block = Math.min(blockSize, Math.max(max, bytesPerChecksum));
      int chunk = (int) Math.min(chunkSize, block / bytesPerChecksum * bytesPerChecksum);
      return new Settings(block, chunk, bytesPerChecksum, commitEveryChunks, maxRetries, factor, allCommittedWait);
    }

    /** The configured block, chunk and checksum sizes, with the standard commit and retry behaviour. */
    public static Settings from(Configuration conf, ReplicationFactor factor) {
      return new Settings(conf.get(ScmKeys.BLOCK_SIZE).bytes(), (int) conf.get(ScmKeys.CHUNK_SIZE).bytes(),
          (int) conf.get(ClientKeys.BYTES_PER_CHECKSUM).bytes(), COMMIT_EVERY_CHUNKS, MAX_RETRIES, factor,
          ALL_COMMITTED_WAIT);
    }
  }

  private final BlockAllocator allocator;
  private final Settings settings;
  private final PipelineClients pipelines;
  private final ExcludeList.Builder exclude = ExcludeList.newBuilder();
  private final List<BlockLocation> written = new ArrayList<>();
  /** Chunks sent since the last confirmed commit, oldest first. */
  private final List<ByteBuffer> uncommitted = new ArrayList<>();
  private final List<CompletableFuture<PipelineClient.Reply>> inFlight = new ArrayList<>();
  /** The commit being confirmed, if any. */
  private PendingCommit pending;
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
  public BlockStreamWriter(ScmBlockClient scm, PipelineClients pipelines, Settings settings) {
    this(BlockAllocator.of(scm), pipelines, settings);
  }

  /** @param pipelines the process's shared pipeline clients (owned by the caller) */
  public BlockStreamWriter(BlockAllocator allocator, PipelineClients pipelines, Settings settings) {
    this.allocator = allocator;
    this.pipelines = pipelines;
    this.settings = settings;
    this.chunk = ByteBuffer.allocate(Math.min(FIRST_BUFFER, settings.chunkSize()));
  }

  public void write(ByteBuffer data) throws IOException {
    while (data.hasRemaining()) {
      if (!chunk.hasRemaining()) {
        if (chunk.capacity() < settings.chunkSize()) {
          chunk = ByteBuffer.allocate(Math.min(Math.max(2 * chunk.capacity(), FIRST_BUFFER), settings.chunkSize()))
              .put(chunk.flip());
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
  public List<BlockLocation> finish() throws IOException {
    if (chunk.position() > 0) {
      sendBufferedChunk(true);
    }
    if (block != null) {
      commitWithRetries();
      written.add(new BlockLocation(block.getBlockId(), committed));
      block = null;
    }
    return List.copyOf(written);
  }

  /** Sends the buffered chunk; the stream's last chunk also carries its block's commit. */
  private void sendBufferedChunk(boolean last) throws IOException {
    // The buffer itself goes (kept until committed, for a resend); the next chunk gets a new one.
    ByteBuffer data = chunk.flip();
    chunk = ByteBuffer.allocate(last ? 0 : settings.chunkSize());
    if (block != null && sent + data.remaining() > settings.blockSize()) {
      commitWithRetries();
      written.add(new BlockLocation(block.getBlockId(), committed));
      block = null;
    }
    if (block == null) {
      startBlock();
    }
    uncommitted.add(data);
    send(data, last);
    if (last) {
      commitWithRetries();
    } else if (uncommitted.size() - (pending == null ? 0 : pending.chunks()) >= settings.commitEveryChunks()) {
      withRetries(() -> {
        awaitCommit();
        requestCommit();
      });
    }
  }

  private void send(ByteBuffer data, boolean commitsBlock) {
    ChecksumData sums = Checksums.compute(data, settings.bytesPerChecksum());
    long offset = sent;
    blockSums = Checksums.concat(blockSums, sums);
    sent += data.remaining();
    if (commitsBlock) {
      carriedCommit = client.writeLastChunk(block.getBlockId(), offset, data, sums, sent, blockSums);
      inFlight.add(carriedCommit);
    } else {
      inFlight.add(client.writeChunk(block.getBlockId(), offset, data, sums));
    }
  }

  /** Commits everything sent and waits until that is confirmed. */
  private void commitWithRetries() throws IOException {
    withRetries(() -> {
      awaitCommit();
      if (committed < sent) {
        requestCommit();
        awaitCommit();
      }
    });
  }

  /** A step of committing, which may fail. */
  @FunctionalInterface
  private interface CommitStep {
    void run() throws IOException;
  }

  /** Runs {@code step}; on failure moves the unconfirmed chunks to a new block and runs it again. */
  private void withRetries(CommitStep step) throws IOException {
    while (true) {
      try {
        step.run();
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
        abandonBlock(containerClosed, causedBy(e, GroupMismatchException.class));
      }
    }
  }

  /**
   * Commits everything sent so far without waiting: the commit is confirmed once the chunks before it are written
   * and its entry is on the replicas.
   */
  private void requestCommit() {
    CompletableFuture<PipelineClient.Reply> commit = carriedCommit != null ? carriedCommit
        : client.putBlock(block.getBlockId(), sent, blockSums);
    carriedCommit = null;
    CompletableFuture<?> chunks = CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new));
    inFlight.clear();
    PipelineClient pipeline = client;
    UUID pipelineId = pipelineId();
    pending = new PendingCommit(chunks.thenCompose(v -> commit)
        .thenCompose(reply -> onReplicas(pipeline, pipelineId, reply.logIndex())), sent, uncommitted.size());
  }

  /** Waits for the pending commit, if any; the chunks it covers are then no longer kept. */
  private void awaitCommit() throws IOException {
    if (pending == null) {
      return;
    }
    PendingCommit commit = pending;
    try {
      commit.confirmed().get();
    } catch (ExecutionException e) {
      throw new IOException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while committing a block", e);
    }
    pending = null;
    committed = commit.length();
    uncommitted.subList(0, commit.chunks()).clear();
  }

  /** Completes when every replica has the entry, or a majority once the wait for every replica timed out. */
  private CompletableFuture<Void> onReplicas(PipelineClient pipeline, UUID pipelineId, long index) {
    return pipeline.watch(index, ReplicationLevel.ALL_COMMITTED)
        .orTimeout(settings.allCommittedWait().toMillis(), TimeUnit.MILLISECONDS)
        .exceptionallyCompose(e -> {
          if (!(e instanceof TimeoutException || e.getCause() instanceof TimeoutException)) {
            return CompletableFuture.failedFuture(e);
          }
          LOG.warn("Pipeline {}: not every replica committed entry {} within {}; accepting a majority (slow or lost"
              + " member)", pipelineId, index, settings.allCommittedWait());
          return pipeline.watch(index, ReplicationLevel.MAJORITY_COMMITTED);
        });
  }

  /** A commit of the block's first {@code length} bytes, the first {@code chunks} unconfirmed chunks. */
  private record PendingCommit(CompletableFuture<Void> confirmed, long length, int chunks) {
  }

  /**
   * Keeps the committed part of the current block and resends the rest to a new block: in another container
   * when only the container closed (the pipeline is fine), else on another pipeline.
   */
  private void abandonBlock(boolean containerClosed, boolean pipelineGone) throws IOException {
    inFlight.forEach(f -> f.cancel(false));
    inFlight.clear();
    carriedCommit = null;
    pending = null;
    if (containerClosed) {
      exclude.addContainers(block.getBlockId().getContainerId());
    } else {
      exclude.addPipelines(block.getPipeline().getId());
    }
    if (committed > 0) {
      written.add(new BlockLocation(block.getBlockId(), committed));
    }
    if (pipelineGone) {
      // Only then: the client is shared by every writer of the process, and after anything else (a leader
      // stepping down, a timeout) Ratis finds the group's leader again by itself.
      pipelines.invalidate(client);
    }
    List<ByteBuffer> resend = List.copyOf(uncommitted);
    startBlock();
    for (ByteBuffer data : resend) {
      send(data.duplicate(), false);
    }
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
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

  /** Nothing to release: the pipeline clients belong to the caller. */
  @Override
  public void close() {
  }
}
