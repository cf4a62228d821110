package org.tropos.s3.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The request body handed from Netty's event loop to a worker. */
@Timeout(60)
class BodyPipeTest {
  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) seed);
    return b;
  }

  @Test
  void aSlowClientsFirstPieceIsReadWithoutWaitingForMoreOrForTheEnd() throws Exception {
    BodyPipe pipe = new BodyPipe(new EmbeddedChannel(), false);
    byte[] piece = bytes(1024, 7);
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      try {
        byte[] into = new byte[64 << 10];
        int n = pipe.read(into, 0, into.length);
        return Arrays.copyOf(into, n);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    pipe.offer(Unpooled.wrappedBuffer(piece)); // a slow client: nothing more for now, and no end
    assertArrayEquals(piece, read.get(5, TimeUnit.SECONDS));
    pipe.close();
  }

  @Test
  void aWholeBodyOfManyPiecesReadsBackInOrderAndThenEnds() throws Exception {
    BodyPipe pipe = new BodyPipe(new EmbeddedChannel(), false);
    int pieces = 40;
    CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
      try {
        return pipe.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    byte[] expected = new byte[pieces * 8192];
    for (int i = 0; i < pieces; i++) {
      byte[] piece = bytes(8192, i);
      System.arraycopy(piece, 0, expected, i * 8192, 8192);
      pipe.offer(Unpooled.wrappedBuffer(piece));
    }
    pipe.end();
    byte[] body = read.get(5, TimeUnit.SECONDS);
    assertEquals(expected.length, body.length);
    assertArrayEquals(expected, body);
  }
}
