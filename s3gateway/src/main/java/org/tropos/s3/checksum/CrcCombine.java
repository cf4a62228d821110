package org.tropos.s3.checksum;

/**
 * The CRC of two byte strings joined, from the CRC of each and the length of the second, without their bytes: how
 * S3 makes a multipart object's FULL_OBJECT checksum from its parts'. Neither the JDK nor the AWS CRT offers it, so
 * it is done here as zlib's {@code crc32_combine} does: appending n zero bits to the first string is a linear map of
 * its CRC register over GF(2), applied by squaring the one-bit map log2(n) times. It holds for any reflected CRC
 * whose initial value and final XOR are equal (CRC32, CRC32C and CRC64NVME all start and end with all ones).
 */
final class CrcCombine {
  private CrcCombine() {
  }

  /** The CRC of A then B, given {@code crcA}, {@code crcB} and B's length in bytes. */
  static long combine(ChecksumAlgorithm algorithm, long crcA, long crcB, long lengthB) {
    if (lengthB == 0) {
      return crcA;
    }
    int width = algorithm.bytes() * 8;
    long[] odd = new long[width];
    long[] even = new long[width];
    // The map of one zero bit: shift right, folding in the polynomial when the low bit falls out.
    odd[0] = algorithm.reflectedPolynomial();
    for (int n = 1; n < width; n++) {
      odd[n] = 1L << (n - 1);
    }
    square(even, odd); // two zero bits
    square(odd, even); // four zero bits
    long crc = crcA;
    long bytes = lengthB;
    // Each round squares the map (8, 16, 32, ... zero bits: the first one is a zero byte) and applies it where
    // the length has a one bit.
    do {
      square(even, odd);
      if ((bytes & 1) != 0) {
        crc = times(even, crc);
      }
      bytes >>>= 1;
      if (bytes == 0) {
        break;
      }
      square(odd, even);
      if ((bytes & 1) != 0) {
        crc = times(odd, crc);
      }
      bytes >>>= 1;
    } while (bytes != 0);
    return crc ^ crcB;
  }

  private static long times(long[] matrix, long vector) {
    long sum = 0;
    for (int i = 0; vector != 0; i++, vector >>>= 1) {
      if ((vector & 1) != 0) {
        sum ^= matrix[i];
      }
    }
    return sum;
  }

  private static void square(long[] square, long[] matrix) {
    for (int n = 0; n < matrix.length; n++) {
      square[n] = times(matrix, matrix[n]);
    }
  }
}
