package org.tropos.client.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.util.CrcComposer;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;
import org.tropos.client.TroposClient;
import org.tropos.client.KeyInputStream;
import org.tropos.common.ec.EcReplication;
import org.tropos.common.ec.StripeLayout;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.LookupKeyResponse;

/**
 * A file's checksum as HDFS's COMPOSITE_CRC: the CRC32C of all its bytes, composed from the CRC32C pieces the
 * datanodes stored when the blocks were written, so the same bytes give the same checksum whatever the block
 * and chunk sizes, and no data moves. An erasure-coded group's CRC is composed from its data indexes' pieces cell by
 * cell in the group's order (HDFS composes a striped file's the same way). A block the key holds only a slice of,
 * not on piece boundaries (an S3 UploadPartCopy of a byte range), or a group whose pieces cannot be composed (a data
 * index unreachable, pieces across cell edges), has its bytes read and their CRC computed here.
 */
final class CompositeCrc {
  private static final int READ_BUFFER = 1 << 20;
  /** What an empty file reports as its bytes per CRC (HDFS's default). */
  private static final int EMPTY_FILE_BYTES_PER_CRC = 512;

  private CompositeCrc() {
  }

  static CompositeCrcFileChecksum of(TroposClient client, LookupKeyResponse lookup) throws IOException {
    int bytesPerCrc = 0;
    CrcComposer composer = CrcComposer.newCrcComposer(DataChecksum.Type.CRC32C, Long.MAX_VALUE);
    long keyOffset = 0;
    for (KeyBlock block : lookup.getKey().getBlocksList()) {
      int bpc = lookup.getKey().hasEc() ? composeGroup(client, lookup, block, composer)
          : composeBlock(client.blockChecksums(lookup, block), block, composer);
      if (bpc == 0) {
        composer.update(crcOfBytes(client, lookup, keyOffset, block.getLength()), block.getLength());
      }
      bytesPerCrc = Math.max(bytesPerCrc, bpc);
      keyOffset += block.getLength();
    }
    return new CompositeCrcFileChecksum(CrcUtil.readInt(composer.digest(), 0), DataChecksum.Type.CRC32C,
        bytesPerCrc == 0 ? EMPTY_FILE_BYTES_PER_CRC : bytesPerCrc);
  }

  /**
   * Composes a replicated block's stored pieces; their bytes per CRC, or 0 if they do not cover just the block in
   * whole pieces.
   */
  private static int composeBlock(ReadBlockResponse stored, KeyBlock block, CrcComposer composer) throws IOException {
    int bpc = stored.getChecksums().getBytesPerChecksum();
    ByteBuffer crcs = stored.getChecksums().getChecksums().asReadOnlyByteBuffer();
    if (stored.getOffset() != block.getOffset() || stored.getLength() != block.getLength()
        || !holdsPieces(crcs, block.getLength(), bpc)) {
      return 0;
    }
    for (long left = block.getLength(); left > 0; left -= bpc) {
      composer.update(crcs.getInt(), Math.min(bpc, left));
    }
    return bpc;
  }

  /**
   * Composes an erasure-coded group's data indexes' stored pieces, stripe by stripe and cell by cell; their bytes per
   * CRC, or 0 (nothing composed) if the key holds a slice of the group, a data index does not answer, or its pieces
   * do not lie on its cells (a cell not a whole number of pieces, a piece cut short inside the index).
   */
  private static int composeGroup(TroposClient client, LookupKeyResponse lookup, KeyBlock block,
      CrcComposer composer) throws IOException {
    EcReplication config = EcReplication.fromProto(lookup.getKey().getEc());
    List<ReadBlockResponse> indexes;
    try {
      indexes = client.dataIndexChecksums(lookup, block);
    } catch (IOException e) {
      return 0; // a slice, or an index gone: its bytes are read (a degraded read if need be)
    }
    StripeLayout layout = config.layout();
    int bpc = indexes.get(0).getChecksums().getBytesPerChecksum();
    if (bpc <= 0 || config.cellSize() % bpc != 0) {
      return 0;
    }
    ByteBuffer[] crcs = new ByteBuffer[config.data()];
    for (int unit = 0; unit < crcs.length; unit++) {
      ReadBlockResponse index = indexes.get(unit);
      long length = layout.unitLength(unit, block.getLength());
      crcs[unit] = index.getChecksums().getChecksums().asReadOnlyByteBuffer();
      if (length > 0 && (index.getChecksums().getBytesPerChecksum() != bpc || index.getOffset() != 0
          || index.getLength() != length || !holdsPieces(crcs[unit], length, bpc))) {
        return 0;
      }
    }
    for (long stripe = 0; stripe < layout.stripes(block.getLength()); stripe++) {
      for (int unit = 0; unit < config.data(); unit++) {
        for (int left = layout.cellLength(stripe, unit, block.getLength()); left > 0; left -= bpc) {
          composer.update(crcs[unit].getInt(), Math.min(bpc, left));
        }
      }
    }
    return bpc;
  }

  /** Whether {@code crcs} holds exactly the pieces of {@code length} bytes cut every {@code bpc}. */
  private static boolean holdsPieces(ByteBuffer crcs, long length, int bpc) {
    return length == 0 || bpc > 0 && crcs.remaining() == Integer.BYTES * ((length + bpc - 1) / bpc);
  }

  private static int crcOfBytes(TroposClient client, LookupKeyResponse lookup, long offset, long length)
      throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[(int) Math.min(READ_BUFFER, length)];
    try (KeyInputStream in = client.readKey(lookup)) {
      in.seek(offset);
      for (long left = length; left > 0;) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          throw new IOException(lookup.getKey().getName() + " ended before offset " + (offset + length));
        }
        crc.update(buffer, 0, n);
        left -= n;
      }
    }
    return (int) crc.getValue();
  }
}
