package org.tropos.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.tropos.client.internal.BlockLease;
import org.tropos.client.internal.OmClient;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyRequest;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Writes one key: bytes go to block streams as they come (blocks from the OM, the first one with the open key);
 * {@link #close} commits the key, which only then becomes visible, atomically. After a failed write the key is
 * not committed. A small key may instead be opened with its commit ({@link #openedWithCommit}): its bytes go to a
 * leased block, and the OM sees the key only once, when it is committed; should it need another block (its write
 * failed over, or it grew), or an {@link #hsync}, it is opened then.
 *
 * <p>Not thread-safe: one writer.
 */
final class BlockKeyOutputStream extends KeyOutputStream {
  private final OmClient om;
  private final String volume;
  private final String bucket;
  private final BlockWriter writer;
  /** The key as it is opened with its commit; null once opened (or opened from the start). */
  private OpenKeyRequest unopened;
  private OpenKeyResponse open;
  /** Leased blocks, dropped on what a write failed with; null when none are. */
  private final BlockLease lease;
  private AllocateBlockResponse firstBlock;
  private long size;
  private boolean failed;
  private boolean closed;
  /** The blocks {@link #close} finished, kept for {@link #commitAs} when its commit failed. */
  private List<BlockLocation> finished;
  private KeyInfo committed;
  /** The key as the last {@link #hsync} committed it. */
  private KeyInfo synced;
  private Map<String, String> commitMetadata = Map.of();

  public BlockKeyOutputStream(OmClient om, PipelineClients pipelines, BlockWriteSettings settings, String volume,
      String bucket, OpenKeyResponse open) {
    this(om, volume, bucket, open.hasFirstBlock() ? open.getFirstBlock() : null, null,
        allocator -> new BlockStreamWriter(allocator, pipelines, settings));
    this.open = open;
  }

  /** An erasure-coded key (the opening says its config): striped into block groups the OM allocates. */
  public BlockKeyOutputStream(OmClient om, EcWrites ecWrites, BlockWriteSettings settings, String volume,
      String bucket, OpenKeyResponse open) {
    this(om, volume, bucket, null, null, allocator -> ecWrites.newWriter((size, exclude) -> allocator.allocate(size,
        ReplicationFactor.REPLICATION_FACTOR_UNSPECIFIED, exclude), EcReplication.fromProto(open.getEc()), settings));
    this.open = open;
  }

  private BlockKeyOutputStream(OmClient om, String volume, String bucket, AllocateBlockResponse firstBlock,
      BlockLease lease, Function<BlockAllocator, BlockWriter> writerOf) {
    this.om = om;
    this.volume = volume;
    this.bucket = bucket;
    this.firstBlock = firstBlock;
    this.lease = lease;
    this.writer = writerOf.apply(this::allocate);
  }

  /**
   * A key opened only with its commit, as {@code request} says: its bytes go first to {@code leased} (null for an
   * empty key), a block from {@code lease}.
   */
  public static BlockKeyOutputStream openedWithCommit(OmClient om, PipelineClients pipelines,
      BlockWriteSettings settings, OpenKeyRequest request, AllocateBlockResponse leased, BlockLease lease) {
    BlockKeyOutputStream key = new BlockKeyOutputStream(om, request.getVolume(), request.getBucket(), leased, lease,
        allocator -> new BlockStreamWriter(allocator, pipelines, settings));
    key.unopened = request;
    return key;
  }

  private AllocateBlockResponse allocate(long blockSize, ReplicationFactor factor, ExcludeList exclude)
      throws IOException {
    if (firstBlock != null && exclude.getSerializedSize() == 0) {
      AllocateBlockResponse block = firstBlock;
      firstBlock = null;
      return block;
    }
    firstBlock = null;
    if (lease != null && exclude.getSerializedSize() > 0) {
      lease.drop(exclude);
    }
    try {
      return om.allocateBlock(volume, bucket, opened(), blockSize, exclude);
    } catch (OmException e) {
      throw new IOException("cannot get a block for " + volume + "/" + bucket + ": " + e.getMessage(), e);
    }
  }

  /** The open key; a key to be opened with its commit is opened now (it needs more than its first block). */
  private OpenKeyResponse opened() throws OmException {
    if (open == null) {
      open = om.openKey(unopened.toBuilder().setSize(0).build());
      unopened = null;
    }
    return open;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("key stream is closed");
    }
    try {
      writer.write(ByteBuffer.wrap(b, off, len));
      size += len;
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  /** Commits what was written: the key becomes visible with exactly these bytes. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (failed) {
        throw new IOException("a write to this key failed: the key was not committed");
      }
      finished = writer.finish();
    } finally {
      writer.close();
    }
    committed = commit(finished);
  }

  /** Whether the key is still to be opened with its commit. */
  @Override
  public boolean opensWithCommit() {
    return unopened != null;
  }

  /**
   * Commits again, opened as {@code request} says, a key to be opened with its commit whose {@link #close} failed
   * in the OM (its bucket had changed since the request was made): the bytes stay where they were written.
   */
  @Override
  public void commitAs(OpenKeyRequest request) throws IOException {
    if (unopened == null || finished == null || committed != null) {
      throw new IllegalStateException("only a key to be opened with its commit, closed and not committed, can be"
          + " committed again");
    }
    unopened = request;
    committed = commit(finished);
  }

  /**
   * Makes everything written so far durable on every replica and visible to readers: the current block is
   * finished (the next write starts a new one) and the key is committed with what it holds now. The stream
   * stays open; its next hsync, and its close, commit the key again, larger. Nothing new since the last one:
   * nothing to do.
   */
  @Override
  public void hsync() throws IOException {
    if (closed) {
      throw new IOException("key stream is closed");
    }
    if (failed) {
      throw new IOException("a write to this key failed: it cannot be synced");
    }
    if (synced != null && synced.getSize() == size) {
      return;
    }
    try {
      // Commits after this one must find the key this one makes: it needs an identity of its own first.
      opened();
      synced = commit(writer.finish());
    } catch (OmException e) {
      failed = true;
      throw new IOException("cannot open the key: " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  private KeyInfo commit(List<BlockLocation> blocks) throws IOException {
    List<KeyBlock> keyBlocks = blocks.stream().map(b -> KeyBlock.newBuilder().setBlockId(b.block())
        .setLength(b.length()).build()).toList();
    List<BlockToken> tokens = blocks.stream().map(BlockLocation::token).toList();
    try {
      return unopened != null ? om.createKey(unopened, size, keyBlocks, tokens, commitMetadata)
          : om.commitKey(volume, bucket, open, size, keyBlocks, tokens, commitMetadata, synced != null);
    } catch (OmException e) {
      throw new IOException("cannot commit the key: " + e.getMessage(), e);
    }
  }

  /** Metadata known only once the data is written (an S3 ETag): stored with the key at {@link #close}. */
  @Override
  public void setCommitMetadata(Map<String, String> metadata) {
    commitMetadata = Map.copyOf(metadata);
  }

  /**
   * Ends the write without committing: the key stays as it was (the blocks written so far are orphans, for
   * the orphan-block scrubber). Used when the writer's source turns out to be bad, such as an S3 upload
   * whose checksum does not match.
   */
  @Override
  public void abort() {
    if (closed) {
      return;
    }
    closed = true;
    writer.close();
  }

  /** The committed key, after {@link #close}. */
  @Override
  public KeyInfo committedKey() {
    return committed;
  }
}
