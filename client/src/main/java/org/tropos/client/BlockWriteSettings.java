package org.tropos.client;

import java.time.Duration;
import org.tropos.common.conf.ClientKeys;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.ScmKeys;
import org.tropos.proto.hdds.ReplicationFactor;

/**
 * How a stream of bytes is written as blocks.
 *
 * @param blockSize the largest block
 * @param chunkSize bytes per WriteChunk
 * @param bytesPerChecksum bytes per CRC32C
 * @param commitEveryChunks chunks between PutBlocks (bounds the bytes buffered for a resend)
 * @param maxRetries failures tolerated before the write fails
 * @param factor the replication of the blocks' pipelines
 * @param allCommittedWait how long to wait for every replica before accepting a majority
 */
public record BlockWriteSettings(long blockSize, int chunkSize, int bytesPerChecksum, int commitEveryChunks,
    int maxRetries, ReplicationFactor factor, Duration allCommittedWait) {
  private static final int COMMIT_EVERY_CHUNKS = 4;
  private static final int MAX_RETRIES = 5;
  private static final Duration ALL_COMMITTED_WAIT = Duration.ofSeconds(10);

  /** The same with blocks of at most {@code max} bytes (a caller's hint), chunks no larger than a block. */
  public BlockWriteSettings withMaxBlockSize(long max) {
    long block = Math.min(blockSize, Math.max(max, bytesPerChecksum));
    int chunk = (int) Math.min(chunkSize, block / bytesPerChecksum * bytesPerChecksum);
    return new BlockWriteSettings(block, chunk, bytesPerChecksum, commitEveryChunks, maxRetries, factor,
        allCommittedWait);
  }

  /** The configured block, chunk and checksum sizes, with the standard commit and retry behaviour. */
  public static BlockWriteSettings from(Configuration conf, ReplicationFactor factor) {
    return new BlockWriteSettings(conf.get(ScmKeys.BLOCK_SIZE).bytes(), (int) conf.get(ScmKeys.CHUNK_SIZE).bytes(),
        (int) conf.get(ClientKeys.BYTES_PER_CHECKSUM).bytes(), COMMIT_EVERY_CHUNKS, MAX_RETRIES, factor,
        ALL_COMMITTED_WAIT);
  }
}
