package org.tropos.client.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.tropos.client.BlockLocation;
import org.tropos.client.internal.ratis.PipelineClients;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.hdds.ReplicationFactor;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.OpenKeyResponse;
import org.tropos.proto.scm.AllocateBlockResponse;
import org.tropos.proto.scm.ExcludeList;

/**
 * Writes one key: bytes go to block streams as they come (blocks from the OM, the first one with the open key);
 * {@link #close} commits the key, which only then becomes visible, atomically. After a failed write the key is
 * not committed.
 *
 * <p>Not thread-safe: one writer.
 */
public final class KeyOutputStream extends OutputStream {
  private final OmClient om;
  private final String volume;
  private final String bucket;
  private final OpenKeyResponse open;
  private final BlockStreamWriter writer;
  private AllocateBlockResponse firstBlock;
  private long size;
  private boolean failed;
  private boolean closed;
  private KeyInfo committed;
  /** The key as the last {@link #hsync} committed it. */
  private KeyInfo synced;
  private Map<String, String> commitMetadata = Map.of();

  public KeyOutputStream(OmClient om, PipelineClients pipelines, BlockStreamWriter.Settings settings, String volume,
      String bucket, OpenKeyResponse open) {
    this.om = om;
    this.volume = volume;
    this.bucket = bucket;
    this.open = open;
    this.firstBlock = open.hasFirstBlock() ? open.getFirstBlock() : null;
    this.writer = new BlockStreamWriter(this::allocate, pipelines, settings);
  }

  private AllocateBlockResponse allocate(long blockSize, ReplicationFactor factor, ExcludeList exclude)
      throws IOException {
    if (firstBlock != null && exclude.getSerializedSize() == 0) {
      AllocateBlockResponse block = firstBlock;
      firstBlock = null;
      return block;
    }
    firstBlock = null;
    try {
      return om.allocateBlock(volume, bucket, open, blockSize, exclude);
    } catch (OmException e) {
      throw new IOException("cannot get a block for " + volume + "/" + bucket + ": " + e.getMessage(), e);
    }
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
    if (failed) {
      throw new IOException("a write to this key failed: the key was not committed");
    }
    committed = commit(writer.finish());
  }

  /**
   * Makes everything written so far durable on every replica and visible to readers: the current block is
   * finished (the next write starts a new one) and the key is committed with what it holds now. The stream
   * stays open; its next hsync, and its close, commit the key again, larger. Nothing new since the last one:
   * nothing to do.
   */
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
      synced = commit(writer.finish());
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  private KeyInfo commit(List<BlockLocation> blocks) throws IOException {
    List<KeyBlock> keyBlocks = blocks.stream().map(b -> KeyBlock.newBuilder().setBlockId(b.block())
        .setLength(b.length()).build()).toList();
    try {
      return om.commitKey(volume, bucket, open, size, keyBlocks, commitMetadata, synced != null);
    } catch (OmException e) {
      throw new IOException("cannot commit the key: " + e.getMessage(), e);
    }
  }

  /** Metadata known only once the data is written (an S3 ETag): stored with the key at {@link #close}. */
  public void setCommitMetadata(Map<String, String> metadata) {
    commitMetadata = Map.copyOf(metadata);
  }

  /**
   * Ends the write without committing: the key stays as it was (the blocks written so far are orphans, for
   * the orphan-block scrubber). Used when the writer's source turns out to be bad, such as an S3 upload
   * whose checksum does not match.
   */
  public void abort() {
    if (closed) {
      return;
    }
    closed = true;
    writer.close();
  }

  /** The committed key, after {@link #close}. */
  public KeyInfo committedKey() {
    return committed;
  }
}
