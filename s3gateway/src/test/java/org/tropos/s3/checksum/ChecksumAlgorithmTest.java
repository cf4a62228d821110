package org.tropos.s3.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tropos.s3.checksum.MultipartChecksum.Part;
import org.tropos.s3.checksum.ObjectChecksum.Type;

class ChecksumAlgorithmTest {
  private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

  /** The catalogue's check values (the CRC of "123456789") and the SHA test vectors. */
  @Test
  void eachAlgorithmGivesItsPublishedCheckValue() {
    assertEquals("cbf43926", hex(ChecksumAlgorithm.CRC32.of(CHECK)));
    assertEquals("e3069283", hex(ChecksumAlgorithm.CRC32C.of(CHECK)));
    assertEquals("ae8b14860a799888", hex(ChecksumAlgorithm.CRC64NVME.of(CHECK)));
    byte[] abc = "abc".getBytes(StandardCharsets.US_ASCII);
    assertEquals("a9993e364706816aba3e25717850c26c9cd0d89d", hex(ChecksumAlgorithm.SHA1.of(abc)));
    assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        hex(ChecksumAlgorithm.SHA256.of(abc)));
  }

  @Test
  void headerNamesAndAlgorithmNamesAreReadInAnyCase() {
    assertEquals(ChecksumAlgorithm.CRC64NVME, ChecksumAlgorithm.ofHeader("X-Amz-Checksum-CRC64NVME").orElseThrow());
    assertEquals(ChecksumAlgorithm.SHA256, ChecksumAlgorithm.named("sha256").orElseThrow());
    assertEquals("x-amz-checksum-crc32c", ChecksumAlgorithm.CRC32C.header());
    assertEquals("ChecksumCRC32C", ChecksumAlgorithm.CRC32C.xmlElement());
  }

  /** Joining the parts' CRCs gives the CRC of every byte, at any split, including empty and odd-sized parts. */
  @Test
  void crcsOfPartsCombineIntoTheCrcOfTheWhole() throws Exception {
    Random random = new Random(7);
    byte[] whole = new byte[300_000];
    random.nextBytes(whole);
    for (ChecksumAlgorithm a : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32C,
        ChecksumAlgorithm.CRC64NVME)) {
      for (int round = 0; round < 20; round++) {
        int cut1 = random.nextInt(whole.length);
        int cut2 = cut1 + random.nextInt(whole.length - cut1 + 1);
        List<Part> parts = new ArrayList<>();
        int[] cuts = {0, cut1, cut2, whole.length};
        for (int i = 0; i < 3; i++) {
          byte[] part = java.util.Arrays.copyOfRange(whole, cuts[i], cuts[i + 1]);
          parts.add(new Part(i + 1, MultipartChecksum.partEntry(ObjectChecksum.fullObject(a, a.of(part))),
              part.length));
        }
        ObjectChecksum joined = new MultipartChecksum(a, Type.FULL_OBJECT).join(parts).orElseThrow();
        assertEquals(ObjectChecksum.fullObject(a, a.of(whole)), joined, a + " cut at " + cut1 + ", " + cut2);
      }
    }
  }

  /** S3's composite checksum: the checksum of the parts' checksums joined, and the count of parts. */
  @Test
  void aCompositeChecksumIsTheChecksumOfThePartChecksums() throws Exception {
    byte[] a = "part one".getBytes(StandardCharsets.US_ASCII);
    byte[] b = "part two".getBytes(StandardCharsets.US_ASCII);
    ChecksumAlgorithm sha = ChecksumAlgorithm.SHA256;
    List<Part> parts = List.of(new Part(1, MultipartChecksum.partEntry(ObjectChecksum.fullObject(sha, sha.of(a))), 8),
        new Part(2, MultipartChecksum.partEntry(ObjectChecksum.fullObject(sha, sha.of(b))), 8));
    byte[] both = ByteBuffer.allocate(64).put(sha.of(a)).put(sha.of(b)).array();
    ObjectChecksum joined = new MultipartChecksum(sha, Type.COMPOSITE).join(parts).orElseThrow();
    assertEquals(ObjectChecksum.fullObject(sha, sha.of(both)).value() + "-2", joined.value());
    assertEquals(Type.COMPOSITE, joined.type());
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
