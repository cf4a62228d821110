package org.tropos.common.util;

import org.tropos.proto.om.KeyBlock;

/** What a key's block record says beyond its fields. */
public final class KeyBlocks {
  private KeyBlocks() {
  }

  /**
   * The length of the whole block {@code block} holds bytes of: its own record for a slice (UploadPartCopy of a
   * range), else where the key's bytes in it end. An erasure-coded group's layout depends on it.
   */
  public static long wholeLength(KeyBlock block) {
    return block.getBlockLength() > 0 ? block.getBlockLength() : block.getOffset() + block.getLength();
  }
}
