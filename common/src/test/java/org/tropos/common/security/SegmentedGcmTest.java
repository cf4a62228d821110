package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.tropos.common.io.ByteSink;

/** The encrypted stream format: lengths, whole and ranged reads bit-exact, and every tampering refused. */
class SegmentedGcmTest {
  private static final int S = SegmentedGcm.SEGMENT;
  private static final List<Integer> SIZES = List.of(0, 1, S - 1, S, S + 1, 2 * S, 3 * S + 5);
  private final Random random = new Random(42);
  private final byte[] key = bytes(SegmentedGcm.KEY_BYTES);

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private static byte[] encrypt(byte[] plain, byte[] key) throws IOException {
    ByteArrayOutputStream stored = new ByteArrayOutputStream();
    try (EncryptingOutputStream out = new EncryptingOutputStream(stored, key)) {
      // Uneven writes and flushes: segment boundaries must not depend on how the bytes arrive. Each stream takes
      // the memory and cipher the one before gave back.
      for (int off = 0; off < plain.length; off += 1000) {
        out.write(plain, off, Math.min(1000, plain.length - off));
        if (off % 37_000 == 0) {
          out.flush();
        }
      }
    }
    return stored.toByteArray();
  }

  /** Plaintext {@code [from, from + length)} of {@code stored}, read as a ranged GET reads it. */
  private static byte[] read(byte[] stored, byte[] key, long plaintext, long from, long length) throws IOException {
    SegmentedGcm.Span span = SegmentedGcm.span(plaintext, from, length);
    byte[] prefix = Arrays.copyOf(stored, SegmentedGcm.PREFIX_BYTES);
    // As a datanode serves it: a stored stream cut short ends early (copyOfRange alone would pad it with zeros,
    // which a last byte of zero would pass for).
    InputStream range = new ByteArrayInputStream(Arrays.copyOfRange(stored, (int) span.storedFrom(),
        (int) Math.min(span.storedTo(), stored.length)));
    try (DecryptingInputStream in = new DecryptingInputStream(range, key, prefix, plaintext, span, length)) {
      return in.readAllBytes();
    }
  }

  @Test
  void everySizeRoundTripsWithTheLengthsTheFormatSays() throws IOException {
    for (int size : SIZES) {
      byte[] plain = bytes(size);
      byte[] stored = encrypt(plain, key);
      assertEquals(SegmentedGcm.storedLength(size), stored.length, "size " + size);
      assertEquals(size, SegmentedGcm.plaintextLength(stored.length));
      assertArrayEquals(plain, read(stored, key, size, 0, size), "size " + size);
    }
    for (long impossible : List.of(0L, 8L, 23L, 8L + SegmentedGcm.STORED_SEGMENT + 16)) {
      assertThrows(IllegalArgumentException.class, () -> SegmentedGcm.plaintextLength(impossible), "" + impossible);
    }
  }

  @Test
  void writesOfWholeSegmentsAreSealedAsTheSameStreamAsSmallWrites() throws IOException {
    // Writes holding a whole segment are sealed where they lie; which segment is the last must not change.
    for (int size : List.of(S, 2 * S, 2 * S + 1, 5 * S + 3)) {
      byte[] plain = bytes(size);
      for (int piece : List.of(size, S, S + 1, 3 * S - 1)) {
        for (int lead : List.of(0, 7)) {
          ByteArrayOutputStream stored = new ByteArrayOutputStream();
          try (EncryptingOutputStream out = new EncryptingOutputStream(stored, key)) {
            out.write(plain, 0, lead);
            for (int off = lead; off < size; off += piece) {
              out.write(plain, off, Math.min(piece, size - off));
            }
          }
          String what = "size " + size + " in writes of " + piece + " after " + lead;
          assertEquals(SegmentedGcm.storedLength(size), stored.size(), what);
          assertArrayEquals(plain, read(stored.toByteArray(), key, size, 0, size), what);
        }
      }
    }
  }

  @Test
  void rangesAreReadFromTheSegmentsThatHoldThemBitExact() throws IOException {
    int size = 3 * S + 5;
    byte[] plain = bytes(size);
    byte[] stored = encrypt(plain, key);
    long[][] ranges = {{0, 1}, {S - 1, 2}, {S, S}, {S + 7, 2 * S - 2}, {size - 1, 1}, {size, 0}, {12345, 0}};
    for (long[] r : ranges) {
      assertArrayEquals(Arrays.copyOfRange(plain, (int) r[0], (int) (r[0] + r[1])), read(stored, key, size, r[0],
          r[1]), r[0] + "+" + r[1]);
    }
    for (int i = 0; i < 50; i++) {
      int from = random.nextInt(size);
      int length = random.nextInt(size - from + 1);
      assertArrayEquals(Arrays.copyOfRange(plain, from, from + length), read(stored, key, size, from, length));
    }
    SegmentedGcm.Span middle = SegmentedGcm.span(size, S + 7, 10);
    assertEquals(SegmentedGcm.storedOffset(1), middle.storedFrom());
    assertEquals(SegmentedGcm.storedOffset(2), middle.storedTo(), "one segment read for ten bytes");
  }

  @Test
  void aChangedByteAMovedSegmentACutStreamOrAnotherKeyIsRefused() throws IOException {
    int size = 2 * S + 100;
    byte[] stored = encrypt(bytes(size), key);
    byte[] flipped = stored.clone();
    flipped[(int) SegmentedGcm.storedOffset(1) + 3] ^= 1;
    assertThrows(IOException.class, () -> read(flipped, key, size, S, 10));

    byte[] swapped = stored.clone();
    System.arraycopy(stored, (int) SegmentedGcm.storedOffset(1), swapped, (int) SegmentedGcm.storedOffset(0),
        SegmentedGcm.STORED_SEGMENT);
    System.arraycopy(stored, (int) SegmentedGcm.storedOffset(0), swapped, (int) SegmentedGcm.storedOffset(1),
        SegmentedGcm.STORED_SEGMENT);
    assertThrows(IOException.class, () -> read(swapped, key, size, 0, 10));

    // Cut after the second segment and read as a stream of 2 * S bytes: its last segment was not sealed as last.
    byte[] cut = Arrays.copyOf(stored, (int) SegmentedGcm.storedOffset(2));
    assertEquals(2 * S, SegmentedGcm.plaintextLength(cut.length));
    assertThrows(IOException.class, () -> read(cut, key, 2 * S, 0, 2 * S));

    assertThrows(IOException.class, () -> read(stored, bytes(SegmentedGcm.KEY_BYTES), size, 0, size));
    assertThrows(IOException.class, () -> read(Arrays.copyOf(stored, stored.length - 1), key, size, 0, size),
        "a short last segment");
  }

  @Test
  void twoStreamsOfOnePlaintextUnderOneKeyShareNoCiphertext() throws IOException {
    byte[] plain = bytes(S);
    byte[] first = encrypt(plain, key);
    byte[] second = encrypt(plain, key);
    assertEquals(first.length, second.length);
    assertEquals(false, Arrays.equals(Arrays.copyOfRange(first, 8, 40), Arrays.copyOfRange(second, 8, 40)),
        "each stream draws its own prefix, so nonces are not reused");
  }

  /**
   * The same range through {@link DecryptingSink}, the stored bytes pushed in pieces of random sizes, half of them
   * read into the memory the sink lends (as a datanode read does) where it lends any.
   */
  private byte[] push(byte[] stored, long plaintext, long from, long length, boolean prefixFirst) throws IOException {
    return push(stored, plaintext, from, length, prefixFirst, 70_000);
  }

  /** The same, in pieces of up to {@code maxPiece} bytes. */
  private byte[] push(byte[] stored, long plaintext, long from, long length, boolean prefixFirst, int maxPiece)
      throws IOException {
    SegmentedGcm.Span span = SegmentedGcm.span(plaintext, from, length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DecryptingSink sink = new DecryptingSink(key, prefixFirst ? null : Arrays.copyOf(stored,
        SegmentedGcm.PREFIX_BYTES), plaintext, span, length, bytes -> {
          byte[] copy = new byte[bytes.remaining()];
          bytes.get(copy);
          out.writeBytes(copy);
        });
    int start = prefixFirst ? 0 : (int) span.storedFrom();
    for (int at = start; at < span.storedTo(); ) {
      int n = Math.min(1 + random.nextInt(maxPiece), (int) span.storedTo() - at);
      ByteBuffer lent = random.nextBoolean() ? sink.lend(n) : null;
      if (lent != null) {
        lent.clear().limit(n);
        lent.put(stored, at, n).flip();
      }
      sink.accept(lent != null ? lent : ByteBuffer.wrap(stored, at, n));
      at += n;
    }
    sink.finish();
    return out.toByteArray();
  }

  /** A large range is read a piece of 1 MiB at a time: more than the sink's stage holds at first. */
  @Test
  void aSinkTakesPiecesLargerThanItsStage() throws IOException {
    int size = 50 * S + 11;
    byte[] plain = bytes(size);
    byte[] stored = encrypt(plain, key);
    for (int round = 0; round < 4; round++) {
      assertArrayEquals(plain, push(stored, size, 0, size, true, 1 << 20));
      assertArrayEquals(Arrays.copyOfRange(plain, S + 3, size - 2), push(stored, size, S + 3, size - S - 5, false,
          1 << 20));
    }
  }

  /**
   * An HTTP response lends memory outside the heap for the plaintext, 1 MiB at a time: it gets the plaintext whole,
   * and nothing of a batch holding a segment that fails its check.
   */
  @Test
  void aSinkDecryptsIntoTheMemoryItIsLentAndHandsOnNoBatchWithAFailedSegment() throws IOException {
    int size = 40 * S + 9;
    byte[] plain = bytes(size);
    byte[] stored = encrypt(plain, key);
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    ByteSink response = new ByteSink() {
      @Override
      public void accept(ByteBuffer bytes) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        received.writeBytes(copy);
      }

      @Override
      public ByteBuffer lend(int bytes) {
        return ByteBuffer.allocateDirect(bytes);
      }
    };
    pushWhole(stored, size, response);
    assertArrayEquals(plain, received.toByteArray());
    byte[] flipped = stored.clone();
    flipped[(int) SegmentedGcm.storedOffset(20) + 5] ^= 1;
    received.reset();
    assertThrows(UncheckedIOException.class, () -> pushWhole(flipped, size, response));
    assertArrayEquals(Arrays.copyOf(plain, 16 * S), received.toByteArray(), "the first 1 MiB batch only");
  }

  /** The whole stream pushed into a sink handing its plaintext to {@code out}, in 1 MiB pieces read into it. */
  private void pushWhole(byte[] stored, long plaintext, ByteSink out) throws IOException {
    DecryptingSink sink = new DecryptingSink(key, null, plaintext, SegmentedGcm.span(plaintext, 0, plaintext),
        plaintext, out);
    for (int at = 0; at < stored.length; at += 1 << 20) {
      int n = Math.min(1 << 20, stored.length - at);
      ByteBuffer lent = sink.lend(n);
      lent.put(stored, at, n).flip();
      sink.accept(lent);
    }
    sink.finish();
  }

  @Test
  void aSinkDecryptsWhatArrivesInAnyPiecesAndRefusesTamperingAndAShortStream() throws IOException {
    int size = 3 * S + 5;
    byte[] plain = bytes(size);
    byte[] stored = encrypt(plain, key);
    assertArrayEquals(plain, push(stored, size, 0, size, true));
    for (long[] range : new long[][] {{0, 10}, {S - 3, 6}, {S + 7, 2 * S - 2}, {size - 1, 1}, {5, 0}}) {
      byte[] expected = Arrays.copyOfRange(plain, (int) range[0], (int) (range[0] + range[1]));
      assertArrayEquals(expected, push(stored, size, range[0], range[1], false), Arrays.toString(range));
      if (range[0] < S) {
        assertArrayEquals(expected, push(stored, size, range[0], range[1], true), "prefix first");
      }
    }
    byte[] flipped = stored.clone();
    flipped[SegmentedGcm.PREFIX_BYTES + S + 100] ^= 1;
    assertThrows(UncheckedIOException.class, () -> push(flipped, size, S, 10, false));
    byte[] other = stored.clone();
    other[0] ^= 1; // another prefix: every nonce differs
    assertThrows(UncheckedIOException.class, () -> push(other, size, 0, 10, true));
    SegmentedGcm.Span span = SegmentedGcm.span(size, 0, size);
    assertEquals(1 << 20, new DecryptingSink(key, null, size, span, size, bytes -> { }).lend(1 << 20).remaining(),
        "a whole piece");
    assertNull(new DecryptingSink(key, null, size, span, size, bytes -> { }).lend((1 << 20) + 1), "not more");
    DecryptingSink cut = new DecryptingSink(key, null, size, span, size, bytes -> { });
    cut.accept(ByteBuffer.wrap(stored, 0, stored.length - 1));
    assertThrows(IOException.class, cut::finish);
  }

  /**
   * The native provider and the JDK seal alike: a segment one sealed opens under the other, a changed one under
   * neither. On Linux x86-64 the native provider must load; elsewhere both ciphers are the JDK's.
   */
  @Test
  void theNativeCipherAndTheJdksReadEachOthersSegments() throws Exception {
    String os = System.getProperty("os.name") + "/" + System.getProperty("os.arch");
    assertEquals(os.equals("Linux/amd64"), GcmCiphers.isNative(), os);
    byte[] prefix = bytes(SegmentedGcm.PREFIX_BYTES);
    SegmentedGcm.Segments fast = new SegmentedGcm.Segments(key, prefix, GcmCiphers.newCipher());
    SegmentedGcm.Segments jdk = new SegmentedGcm.Segments(key, prefix, GcmCiphers.jdkCipher());
    long index = 0; // a cipher refuses to encrypt twice under one key and nonce
    for (int size : List.of(0, 1, 100, S)) {
      byte[] plain = bytes(size);
      for (SegmentedGcm.Segments[] pair : new SegmentedGcm.Segments[][] {{fast, jdk}, {jdk, fast}}) {
        long segment = index++;
        ByteBuffer sealed = ByteBuffer.allocate(size + SegmentedGcm.TAG_BYTES);
        pair[0].encrypt(segment, true, ByteBuffer.wrap(plain), sealed);
        ByteBuffer opened = ByteBuffer.allocate(size);
        pair[1].decrypt(segment, true, sealed.flip(), opened);
        assertArrayEquals(plain, opened.array(), size + " bytes");
        sealed.array()[size / 2] ^= 1;
        assertThrows(GeneralSecurityException.class, () -> pair[1].decrypt(segment, true, sealed.flip(),
            ByteBuffer.allocate(size)));
      }
    }
  }
}
