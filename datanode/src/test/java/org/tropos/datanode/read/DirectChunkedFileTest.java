package org.tropos.datanode.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.net.RecordingAllocator;
import org.tropos.common.util.Threads;
import org.tropos.datanode.container.DirectIo;

class DirectChunkedFileTest {
  private static final ByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(true);

  @TempDir
  Path dir;
  private Path file;
  private byte[] content;
  private ExecutorService readers;
  /** Released once per resume: the transfer was told a piece it waited for has been read. */
  private final Semaphore resumed = new Semaphore(0);

  @BeforeEach
  void writeFile() throws IOException {
    content = new byte[(7 << 19) + 1234];
    new Random(7).nextBytes(content);
    file = Files.write(dir.resolve("block"), content);
    try (var probe = DirectIo.open(file, StandardOpenOption.READ)) {
      assumeTrue(probe.isOpen());
    } catch (IOException e) {
      assumeTrue(false, "the temporary directory's file system refuses O_DIRECT: " + e);
    }
    readers = Threads.boundedPoolWithBackpressure("test-reader", 2, 4);
  }

  @AfterEach
  void stopReaders() {
    readers.shutdownNow();
  }

  private DirectChunkedFile open(long offset, long length, ByteBufAllocator allocator) throws IOException {
    return new DirectChunkedFile(new DirectIo(4096), file, offset, length, allocator, readers, resumed::release);
  }

  /** Pieces come out in order and whole, from an unaligned offset to the file's unaligned end. */
  @Test
  void aRangeReadAheadComesOutInOrder() throws Exception {
    readsInOrder(ALLOCATOR);
  }

  /** The same through buffers that are not direct memory: read into the thread's own aligned buffer and copied. */
  @Test
  void aRangeComesOutWholeThroughBuffersThatAreNotDirect() throws Exception {
    readsInOrder(new AbstractByteBufAllocator(false) {
      @Override
      protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return ALLOCATOR.heapBuffer(initialCapacity, maxCapacity);
      }

      @Override
      protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return ALLOCATOR.heapBuffer(initialCapacity, maxCapacity);
      }

      @Override
      public boolean isDirectBufferPooled() {
        return false;
      }
    });
  }

  private void readsInOrder(ByteBufAllocator allocator) throws Exception {
    long offset = 5000;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DirectChunkedFile input = open(offset, content.length - offset, allocator);
    try {
      while (!input.isEndOfInput()) {
        ByteBuf piece = input.readChunk(allocator);
        if (piece == null) {
          assertTrue(resumed.tryAcquire(10, TimeUnit.SECONDS), "no resume after a piece not read yet");
          continue;
        }
        byte[] bytes = new byte[piece.readableBytes()];
        piece.readBytes(bytes);
        piece.release();
        out.write(bytes);
      }
      assertNull(input.readChunk(allocator));
    } finally {
      input.close();
    }
    byte[] expected = new byte[content.length - (int) offset];
    System.arraycopy(content, (int) offset, expected, 0, expected.length);
    assertArrayEquals(expected, out.toByteArray());
  }

  /** Closed mid-way (the client went), every piece read ahead is released, none handed out afterwards. */
  @Test
  void piecesReadAheadAreReleasedWhenTheTransferStops() throws Exception {
    RecordingAllocator tracking = new RecordingAllocator();
    List<ByteBuf> made = tracking.directBuffers();
    List<ByteBuf> handedOut = new ArrayList<>();
    DirectChunkedFile input = open(0, content.length, tracking);
    while (handedOut.isEmpty()) {
      ByteBuf piece = input.readChunk(tracking);
      if (piece == null) {
        assertTrue(resumed.tryAcquire(10, TimeUnit.SECONDS));
      } else {
        handedOut.add(piece);
      }
    }
    // The pieces after the first are read on the readers; closed before they made their buffers, nothing would be
    // read ahead to release.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (made.size() < 3 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    input.close();
    assertTrue(input.isEndOfInput());
    assertNull(input.readChunk(tracking));
    readers.shutdown();
    assertTrue(readers.awaitTermination(10, TimeUnit.SECONDS));
    assertEquals(3, made.size(), "the first piece and two read ahead");
    for (ByteBuf buffer : made) {
      // By identity (a buffer's equals compares its bytes, which a released one no longer has), through the wrapper
      // Netty's leak detection may have put around the buffer handed out.
      boolean sent = buffer == handedOut.get(0) || buffer == handedOut.get(0).unwrap();
      assertEquals(sent ? 1 : 0, buffer.refCnt());
    }
    handedOut.get(0).release();
  }
}
