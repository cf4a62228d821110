package org.tropos.client.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.util.CrcComposer;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;
import org.tropos.client.TroposClient;
import org.tropos.client.KeyInputStream;
import org.tropos.proto.datanode.ReadBlockResponse;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.LookupKeyResponse;

/**
 * A file's checksum as HDFS's COMPOSITE_CRC: the CRC32C of all its bytes, composed from the CRC32C pieces the
 * datanodes stored when the blocks were written, so the same bytes give the same checksum whatever the block
 * and chunk sizes, and no data moves. A block the key holds only a slice of, not on piece boundaries (an S3
 * UploadPartCopy of a byte range), has that slice read and its CRC computed here.
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
      ReadBlockResponse stored = client.blockChecksums(lookup, block);
      if (stored.getOffset() == block.getOffset() && stored.getLength() == block.getLength()) {
        int bpc = stored.getChecksums().getBytesPerChecksum();
        bytesPerCrc = Math.max(bytesPerCrc, bpc);
        ByteBuffer crcs = stored.getChecksums().getChecksums().asReadOnlyByteBuffer();
        for (long left = block.getLength(); left > 0; left -= bpc) {
          composer.update(crcs.getInt(), Math.min(bpc, left));
        }
      } else {
        composer.update(crcOfBytes(client, lookup, keyOffset, block.getLength()), block.getLength());
      }
      keyOffset += block.getLength();
    }
    return new CompositeCrcFileChecksum(CrcUtil.readInt(composer.digest(), 0), DataChecksum.Type.CRC32C,
        bytesPerCrc == 0 ? EMPTY_FILE_BYTES_PER_CRC : bytesPerCrc);
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
