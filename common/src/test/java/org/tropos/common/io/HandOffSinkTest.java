package org.tropos.common.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Pieces go on in order on another thread, whatever buffer they came in; a failure there comes back. */
class HandOffSinkTest {
  private static final int PIECE = 1000;

  @Test
  void piecesGoOnInOrderOnAnotherThreadFromLentAndOwnBuffers() throws IOException {
    byte[] data = new byte[50 * PIECE + 7];
    new Random(7).nextBytes(data);
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    Set<Thread> passers = ConcurrentHashMap.newKeySet();
    HandOffSink sink = new HandOffSink(bytes -> {
      passers.add(Thread.currentThread());
      byte[] copy = new byte[bytes.remaining()];
      bytes.get(copy);
      received.writeBytes(copy);
    }, PIECE);
    Random random = new Random(8);
    for (int at = 0; at < data.length; ) {
      int n = Math.min(1 + random.nextInt(2 * PIECE), data.length - at);
      ByteBuffer lent = sink.lend(n);
      if (n > PIECE) {
        assertNull(lent, "no more than a piece is lent");
        sink.accept(ByteBuffer.wrap(data, at, n));
      } else {
        lent.put(data, at, n).flip();
        sink.accept(lent);
      }
      at += n;
    }
    sink.finish();
    sink.close();
    assertArrayEquals(data, received.toByteArray());
    assertEquals(1, passers.size());
    assertNotEquals(Thread.currentThread(), passers.iterator().next());
  }

  @Test
  void aBufferLentAndNeverHandedBackIsLentAgain() throws IOException {
    try (HandOffSink sink = new HandOffSink(bytes -> { }, PIECE)) {
      ByteBuffer abandoned = sink.lend(PIECE);
      assertSame(abandoned, sink.lend(10), "a failed read's buffer, for the read tried again");
      sink.accept(abandoned.put(new byte[10]).flip());
      sink.finish();
    }
  }

  @Test
  void whatTheNextSinkThrowsComesBackAndNothingAfterItGoesOn() throws IOException {
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    UncheckedIOException refused = new UncheckedIOException(new IOException("segment 2 fails its check"));
    HandOffSink sink = new HandOffSink(bytes -> {
      if (bytes.get(0) == 2) {
        throw refused;
      }
      received.write(bytes.get(0));
    }, PIECE);
    UncheckedIOException thrown = assertThrows(UncheckedIOException.class, () -> {
      for (int piece = 0; piece < 1000; piece++) {
        ByteBuffer lent = sink.lend(PIECE);
        byte[] bytes = new byte[PIECE];
        Arrays.fill(bytes, (byte) piece);
        sink.accept(lent.put(bytes).flip());
      }
      sink.finish();
    });
    assertSame(refused, thrown);
    sink.close();
    assertArrayEquals(new byte[] {0, 1}, received.toByteArray());
  }

  @Test
  void aClosedSinkTakesNothingMore() throws IOException {
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    HandOffSink sink = new HandOffSink(bytes -> received.write(bytes.get(0)), PIECE);
    sink.close();
    assertThrows(IllegalStateException.class, () -> sink.accept(ByteBuffer.wrap(new byte[] {1})));
    assertEquals(0, received.size());
  }
}
