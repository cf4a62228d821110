package org.tropos.common.util;

/**
 * Blocks of small keys, allocated ahead in batches (the OM's pool, a writer's lease) instead of one call to SCM
 * per key. SCM counts a block's expected size against its container, so a small key's size is rounded up to a
 * power of two, from 64 KB up to {@link #LARGEST}, each size its own batch: a block allocated ahead is counted at
 * most twice the bytes it gets.
 */
public final class SmallKeyBlocks {
  /** The largest small key. */
  public static final long LARGEST = 1 << 20;
  private static final long SMALLEST_CLASS = 64 << 10;

  private SmallKeyBlocks() {
  }

  /** Whether a key of {@code size} bytes is small: its block may come from blocks allocated ahead. */
  public static boolean isSmall(long size) {
    return size > 0 && size <= LARGEST;
  }

  /** The size a block for a small key of {@code size} bytes is allocated with. */
  public static long sizeClass(long size) {
    return Math.max(SMALLEST_CLASS, Long.highestOneBit(size - 1) << 1);
  }
}
