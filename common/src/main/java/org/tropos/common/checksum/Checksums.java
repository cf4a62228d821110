package org.tropos.common.checksum;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;
import org.tropos.common.util.Preconditions;
import org.tropos.proto.hdds.ChecksumData;
import org.tropos.proto.hdds.ChecksumType;

/**
 * CRC32C checksums of consecutive {@code bytesPerChecksum}-sized pieces of data (the last may be shorter), as
 * the client computes them at write time, the datanode checks them before writing and stores them, and the
 * client verifies every byte it reads. CRC32C runs on the CPU's CRC instruction (JDK intrinsic).
 */
public final class Checksums {
  private static final int CHECKSUM_SIZE = 4;

  private Checksums() {
  }

  /** The checksums of {@code data} from its position to its limit; the buffer's position is not changed. */
  public static ChecksumData compute(ByteBuffer data, int bytesPerChecksum) {
    Preconditions.assertTrue(bytesPerChecksum > 0, "bytesPerChecksum {}", bytesPerChecksum);
    int pieces = pieces(data.remaining(), bytesPerChecksum);
    ByteBuffer sums = ByteBuffer.allocate(pieces * CHECKSUM_SIZE).order(ByteOrder.BIG_ENDIAN);
    ByteBuffer view = data.duplicate();
    CRC32C crc = new CRC32C();
    for (int i = 0; i < pieces; i++) {
      int end = Math.min(view.position() + bytesPerChecksum, data.limit());
      view.limit(end);
      crc.reset();
      crc.update(view);
      sums.putInt((int) crc.getValue());
      view.limit(data.limit());
    }
    return ChecksumData.newBuilder().setType(ChecksumType.CRC32C).setBytesPerChecksum(bytesPerChecksum)
        .setChecksums(ByteString.copyFrom(sums.flip())).build();
  }

  /**
   * Checks {@code data} (position to limit) against {@code expected}, whose first checksum covers the data's first
   * byte. Returns the index of the first piece that does not match, or -1 if all do.
   */
  public static int firstMismatch(ByteBuffer data, ChecksumData expected) {
    if (expected.getType() == ChecksumType.NONE) {
      return -1;
    }
    int bpc = expected.getBytesPerChecksum();
    int pieces = pieces(data.remaining(), bpc);
    if (expected.getChecksums().size() < pieces * CHECKSUM_SIZE) {
      return expected.getChecksums().size() / CHECKSUM_SIZE;
    }
    ByteBuffer sums = expected.getChecksums().asReadOnlyByteBuffer().slice().order(ByteOrder.BIG_ENDIAN);
    ByteBuffer view = data.duplicate();
    CRC32C crc = new CRC32C();
    for (int i = 0; i < pieces; i++) {
      view.limit(Math.min(view.position() + bpc, data.limit()));
      crc.reset();
      crc.update(view);
      if ((int) crc.getValue() != sums.getInt(i * CHECKSUM_SIZE)) {
        return i;
      }
      view.limit(data.limit());
    }
    return -1;
  }

  /** The checksums of pieces {@code from} (inclusive) to {@code to} (exclusive). */
  public static ChecksumData slice(ChecksumData all, int from, int to) {
    return all.toBuilder().setChecksums(all.getChecksums().substring(from * CHECKSUM_SIZE, to * CHECKSUM_SIZE))
        .build();
  }

  /** {@code first} followed by {@code next} (same type and piece size; {@code first} must end on a piece edge). */
  public static ChecksumData concat(ChecksumData first, ChecksumData next) {
    if (first.getChecksums().isEmpty()) {
      return next;
    }
    Preconditions.assertTrue(first.getBytesPerChecksum() == next.getBytesPerChecksum()
        && first.getType() == next.getType(), "checksum kinds differ: {} vs {}", first.getType(), next.getType());
    return first.toBuilder().setChecksums(first.getChecksums().concat(next.getChecksums())).build();
  }

  /** How many checksums cover {@code pieces(length)} bytes. */
  public static int count(ChecksumData data) {
    return data.getChecksums().size() / CHECKSUM_SIZE;
  }

  public static int pieces(long length, int bytesPerChecksum) {
    return (int) ((length + bytesPerChecksum - 1) / bytesPerChecksum);
  }
}
