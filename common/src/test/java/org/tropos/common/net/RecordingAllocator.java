package org.tropos.common.net;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Unpooled buffers, every direct one kept in order of making, so a test can check that each was released. */
public final class RecordingAllocator extends AbstractByteBufAllocator {
  private final List<ByteBuf> direct = new CopyOnWriteArrayList<>();

  public RecordingAllocator() {
    super(true);
  }

  /** The direct buffers made so far (a live view). */
  public List<ByteBuf> directBuffers() {
    return direct;
  }

  @Override
  protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
    return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
  }

  @Override
  protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
    ByteBuf buffer = UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity);
    direct.add(buffer);
    return buffer;
  }

  @Override
  public boolean isDirectBufferPooled() {
    return false;
  }
}
