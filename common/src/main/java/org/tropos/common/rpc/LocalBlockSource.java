package org.tropos.common.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.tropos.common.io.ByteSink;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;

/**
 * A datanode read server of this JVM, read without its socket ({@link InProcessServers}): the caller gets what a
 * ReadBlock request would have been answered with, then reads the range's bytes from the block's file itself and
 * checks them against the checksums as it would those from the socket ({@link BlockPieces}).
 */
public interface LocalBlockSource {
  /** A range being read: the header a ReadBlock request is answered with, then its bytes in order. */
  interface Range extends AutoCloseable {
    /** What the read server would have answered (OK, the widened range, its checksums, the block's length). */
    ReadBlockResponse header();

    /** Fills {@code into} with the range's next bytes. */
    void readFully(ByteBuffer into) throws IOException;

    @Override
    void close() throws IOException;
  }

  /**
   * Opens bytes {@code offset} to {@code offset + length} of a block (widened to whole checksums), for the bearer of
   * {@code token} (checked as the read server checks it).
   */
  Range open(BlockId block, long offset, long length, BlockToken token) throws IOException, DatanodeException;

  /**
   * Reads bytes {@code offset} to {@code offset + length} of a block into {@code sink}, every checksum verified,
   * as {@link BlockReadClient#read} does from a socket; {@code from} names this server in errors. Returns the
   * block's committed length.
   */
  default long read(BlockId block, long offset, long length, BlockToken token, ByteSink sink, String from)
      throws IOException, DatanodeException {
    try (Range range = open(block, offset, length, token)) {
      // A sink that lends no memory (not the S3 gateway's) gets the range in one buffer of its own.
      BlockPieces.receive(range.header(), offset, length, sink, range::readFully, ByteBuffer::allocate, from);
      return range.header().getBlockLength();
    }
  }
}
