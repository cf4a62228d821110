package org.tropos.common.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;
import org.tropos.common.checksum.Checksums;
import org.tropos.common.io.ByteSink;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.hdds.ChecksumData;

/**
 * Receives the bytes of a block range answered by {@code header}, one piece at a time, checking each against its
 * checksums before any of it is handed on: from a read server's socket ({@link BlockReadClient}) or from the
 * block's file in this JVM ({@link LocalBlockSource}).
 */
final class BlockPieces {
  private static final int PIECE_BYTES = 1 << 20;

  /** Where the range's bytes come from, in order. */
  @FunctionalInterface
  interface Source {
    void readFully(ByteBuffer into) throws IOException;
  }

  private BlockPieces() {
  }

  /**
   * Hands bytes {@code offset} to {@code offset + length} of the range to {@code sink}. A piece wanted whole is
   * read into memory the sink lends, if it does; others into a buffer {@code scratch} gives, asked for once, for
   * at least the given number of bytes.
   *
   * @throws DatanodeException CHECKSUM_MISMATCH, naming {@code from}, where a piece does not match
   */
  static void receive(ReadBlockResponse header, long offset, long length, ByteSink sink, Source source,
      IntFunction<ByteBuffer> scratch, String from) throws IOException, DatanodeException {
    ChecksumData sums = header.getChecksums();
    int bpc = sums.getBytesPerChecksum();
    int chunk = PIECE_BYTES / bpc * bpc;
    long at = header.getOffset();
    long end = at + header.getLength();
    ByteBuffer own = null;
    while (at < end) {
      int n = (int) Math.min(chunk, end - at);
      boolean wantedWhole = at >= offset && at + n <= offset + length;
      ByteBuffer lent = wantedWhole ? sink.lend(n) : null;
      if (lent == null && own == null) {
        own = scratch.apply((int) Math.min(chunk, end - at));
      }
      ByteBuffer into = lent != null ? lent : own;
      into.clear().limit(n);
      source.readFully(into);
      into.flip();
      int firstPiece = (int) ((at - header.getOffset()) / bpc);
      ChecksumData covering = Checksums.slice(sums, firstPiece, firstPiece + Checksums.pieces(n, bpc));
      int bad = Checksums.firstMismatch(into, covering);
      if (bad >= 0) {
        throw new DatanodeException(DatanodeResult.CHECKSUM_MISMATCH, "block data from " + from
            + " does not match its checksum at offset " + (at + (long) bad * bpc));
      }
      long first = Math.max(at, offset);
      long to = Math.min(at + n, offset + length);
      if (lent != null) {
        sink.accept(lent);
      } else if (first < to) {
        sink.accept(own.duplicate().position((int) (first - at)).limit((int) (to - at)).slice());
      }
      at += n;
    }
  }

  /** A scratch buffer for any {@link #receive}. */
  static ByteBuffer scratch() {
    return ByteBuffer.allocateDirect(PIECE_BYTES);
  }
}
