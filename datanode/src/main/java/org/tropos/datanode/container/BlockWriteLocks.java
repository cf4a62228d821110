package org.tropos.datanode.container;

import org.tropos.proto.hdds.BlockId;

/**
 * Locks that keep the writes of one block file apart, a fixed set shared by all blocks: writes of different blocks
 * rarely meet on one, and the file system serialises writes that extend one file anyway.
 *
 * <p>Thread-safe.
 */
final class BlockWriteLocks {
  private static final int STRIPES = 64;

  private final Object[] locks = new Object[STRIPES];

  BlockWriteLocks() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new Object();
    }
  }

  /** The lock of {@code block}'s file. */
  Object of(BlockId block) {
    return locks[Math.floorMod(31 * Long.hashCode(block.getContainerId()) + Long.hashCode(block.getLocalId()),
        STRIPES)];
  }
}
