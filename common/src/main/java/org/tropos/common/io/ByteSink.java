package org.tropos.common.io;

import java.nio.ByteBuffer;
import java.util.function.LongConsumer;

/** Takes the bytes of a read in order, as they arrive. */
@FunctionalInterface
public interface ByteSink {
  /**
   * The next bytes. A buffer the reader owns is reused after the call returns, so a sink that keeps bytes copies
   * them; a buffer this sink lent ({@link #lend}) comes back whole and is the sink's to keep.
   */
  void accept(ByteBuffer bytes);

  /**
   * Memory to receive the next {@code bytes} into, so that they are not copied again on the way out; null (the
   * default) lets the reader use its own. A reader hands the same buffer back to {@link #accept} once every byte in
   * it is verified, or never, if the read fails: a sink that lends frees what was not handed back.
   */
  default ByteBuffer lend(int bytes) {
    return null;
  }

  /** This sink, telling {@code counter} the size of each piece before passing it on; lending passes through. */
  default ByteSink counted(LongConsumer counter) {
    ByteSink next = this;
    return new ByteSink() {
      @Override
      public void accept(ByteBuffer bytes) {
        counter.accept(bytes.remaining());
        next.accept(bytes);
      }

      @Override
      public ByteBuffer lend(int bytes) {
        return next.lend(bytes);
      }
    };
  }
}
