package org.tropos.common.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.tropos.proto.hdds.ChecksumData;

class ChecksumsTest {
  private static ByteBuffer random(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return ByteBuffer.wrap(bytes);
  }

  @Test
  void onePiecePerBytesPerChecksumTheLastShorter() {
    ByteBuffer data = random(40_000);
    ChecksumData sums = Checksums.compute(data, 16_384);
    assertEquals(3, Checksums.count(sums));
    CRC32C last = new CRC32C();
    last.update(data.array(), 32_768, 40_000 - 32_768);
    assertEquals((int) last.getValue(), sums.getChecksums().asReadOnlyByteBuffer().getInt(8));
    assertEquals(0, data.position(), "computing leaves the buffer as it was");
  }

  @Test
  void verifyFindsTheFirstCorruptPiece() {
    ByteBuffer data = random(64 * 1024);
    ChecksumData sums = Checksums.compute(data, 16 * 1024);
    assertEquals(-1, Checksums.firstMismatch(data, sums));
    data.put(40_000, (byte) (data.get(40_000) ^ 1));
    assertEquals(2, Checksums.firstMismatch(data, sums));
  }

  @Test
  void slicesVerifyTheRangesTheyCover() {
    ByteBuffer data = random(100_000);
    ChecksumData sums = Checksums.compute(data, 16_384);
    ByteBuffer middle = data.duplicate().position(16_384).limit(65_536);
    assertEquals(-1, Checksums.firstMismatch(middle, Checksums.slice(sums, 1, 4)));
    ChecksumData joined = Checksums.concat(Checksums.slice(sums, 0, 2), Checksums.slice(sums, 2, 7));
    assertEquals(sums, joined);
  }

  @Test
  void tooFewChecksumsIsAMismatch() {
    ByteBuffer data = random(50_000);
    ChecksumData sums = Checksums.compute(data.duplicate().limit(20_000), 16_384);
    assertEquals(2, Checksums.firstMismatch(data, sums));
  }
}
