package org.tropos.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.proto.hdds.BlockId;

class EcReadAheadTest {
  private static final BlockId GROUP = BlockId.newBuilder().setContainerId(3).setLocalId(9).build();
  private final List<Long> fetched = new ArrayList<>();
  private final EcReadAhead ahead = new EcReadAhead(Runnable::run);

  /** Byte {@code i} of the group is {@code i % 251}; a window arrives as two buffers, the first not at position 0. */
  private final EcReadAhead.PieceReader reader = (offset, length, sink) -> {
    fetched.add(offset);
    byte[] bytes = new byte[length + 5];
    for (int i = 0; i < length; i++) {
      bytes[i + 5] = (byte) ((offset + i) % 251);
    }
    int half = length / 2;
    sink.accept(ByteBuffer.wrap(bytes, 5, half));
    sink.accept(ByteBuffer.wrap(bytes, 5 + half, length - half));
  };

  @Test
  void aWindowServesTheReadsThatCutItAndTheNextOneIsFetchedOnce() throws Exception {
    ahead.start(GROUP, 600, 600, reader);
    assertBytes(600, 400, ahead.take(GROUP, 600, 400));
    ahead.start(GROUP, 1200, 600, reader);
    ahead.start(GROUP, 1200, 600, reader);
    assertBytes(1000, 200, ahead.take(GROUP, 1000, 200));
    assertBytes(1200, 100, ahead.take(GROUP, 1200, 100));
    assertEquals(List.of(600L, 1200L), fetched);
  }

  @Test
  void aReadOutsideTheWindowsDropsThem() throws Exception {
    ahead.start(GROUP, 600, 600, reader);
    assertNull(ahead.take(GROUP, 0, 100));
    assertNull(ahead.take(GROUP, 600, 100), "dropped");
    ahead.start(GROUP, 600, 600, reader);
    assertNull(ahead.take(BlockId.newBuilder(GROUP).setLocalId(10).build(), 600, 100), "another group");
  }

  @Test
  void aFailedFetchIsNotServed() throws Exception {
    ahead.start(GROUP, 0, 600, (offset, length, sink) -> {
      throw new IOException("index gone");
    });
    assertNull(ahead.take(GROUP, 0, 600));
  }

  private static void assertBytes(long offset, int length, List<ByteBuffer> views) {
    ByteBuffer all = ByteBuffer.allocate(length);
    views.forEach(all::put);
    byte[] expected = new byte[length];
    for (int i = 0; i < length; i++) {
      expected[i] = (byte) ((offset + i) % 251);
    }
    assertArrayEquals(expected, all.array());
  }
}
