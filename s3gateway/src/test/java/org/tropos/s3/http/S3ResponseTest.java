package org.tropos.s3.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.net.RecordingAllocator;

/** A streamed response body as the messages the connection sends. */
class S3ResponseTest {
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final S3Response response = new S3Response(channel, "r1", () -> true);

  private static ByteBuffer text(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }

  private static String text(ByteBuf b) {
    return b.toString(StandardCharsets.US_ASCII);
  }

  @Test
  void aBodyInOnePieceLeavesWithItsHeadersAndItsEndAsOneMessage() throws IOException {
    response.headers().set("ETag", "\"e\"");
    response.stream(200, 5, body -> body.accept(text("hello")));
    FullHttpResponse whole = assertInstanceOf(FullHttpResponse.class, channel.readOutbound());
    assertEquals(200, whole.status().code());
    assertEquals("5", whole.headers().get("content-length"));
    assertEquals("\"e\"", whole.headers().get("ETag"));
    assertEquals("hello", text(whole.content()));
    whole.release();
    assertNull(channel.readOutbound());
  }

  @Test
  void aLongerBodyLeavesAsHeadersPiecesAndALastPiece() throws IOException {
    response.stream(206, 8, body -> {
      body.accept(text("abc"));
      body.accept(text("de"));
      body.accept(text("fgh"));
    });
    Object headers = channel.readOutbound();
    assertInstanceOf(HttpResponse.class, headers);
    assertFalse(headers instanceof HttpContent, "headers alone");
    StringBuilder got = new StringBuilder();
    for (Object piece = channel.readOutbound(); piece != null; piece = channel.readOutbound()) {
      got.append(text(((HttpContent) piece).content()));
      boolean last = piece instanceof LastHttpContent;
      ReferenceCountUtil.release(piece);
      assertEquals(got.length() == 8, last, "only the last piece ends the body");
    }
    assertEquals("abcdefgh", got.toString());
  }

  @Test
  void anEmptyBodyIsOneMessage() throws IOException {
    response.stream(200, 0, body -> { });
    FullHttpResponse whole = assertInstanceOf(FullHttpResponse.class, channel.readOutbound());
    assertEquals("0", whole.headers().get("content-length"));
    whole.release();
  }

  @Test
  void aBodyShorterOrLongerThanPromisedClosesTheConnection() {
    IOException shorter = assertThrows(IOException.class, () -> response.stream(200, 10,
        body -> body.accept(text("abc"))));
    assertTrue(shorter.getMessage().contains("7 bytes short"), shorter.getMessage());
    assertFalse(channel.isOpen());
    EmbeddedChannel other = new EmbeddedChannel();
    IOException longer = assertThrows(IOException.class, () -> new S3Response(other, "r2", () -> true).stream(200, 2,
        body -> body.accept(text("abc"))));
    assertTrue(longer.getMessage().contains("more bytes"), longer.getMessage());
    assertFalse(other.isOpen());
  }

  @Test
  void bytesReceivedIntoALentBufferAreSentFromIt() throws IOException {
    ByteBuffer[] lent = new ByteBuffer[1];
    response.stream(200, 5, body -> {
      lent[0] = body.lend(5);
      lent[0].put(text("hello")).flip();
      body.accept(lent[0]);
    });
    FullHttpResponse whole = assertInstanceOf(FullHttpResponse.class, channel.readOutbound());
    assertEquals("hello", text(whole.content()));
    lent[0].put(0, (byte) 'j');
    assertEquals("jello", text(whole.content()), "the message holds the lent memory, not a copy");
    whole.release();
  }

  @Test
  void aBufferLentToAReadThatFailedIsFreed() {
    RecordingAllocator recording = new RecordingAllocator();
    channel.config().setAllocator(recording);
    assertThrows(IOException.class, () -> response.stream(200, 5, body -> {
      body.lend(5);
      body.lend(5);
      throw new IOException("the replica failed mid-read");
    }));
    List<ByteBuf> allocated = recording.directBuffers();
    assertEquals(2, allocated.size());
    allocated.forEach(buffer -> assertEquals(0, buffer.refCnt(), "freed"));
    assertFalse(channel.isOpen());
  }
}
