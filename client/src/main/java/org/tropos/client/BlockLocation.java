package org.tropos.client;

import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;

/**
 * One block of a written object and how many of its bytes belong to it (a block abandoned after a failure holds
 * only what was committed before it), with the token a secure cluster's datanodes read it for (the OM's, from a
 * lookup; else the default instance), or, for a block just written, the WRITE token it was handed out with (the
 * commit gives it back as proof).
 */
public record BlockLocation(BlockId block, long length, BlockToken token) {
  /** A block read without a token (a cluster that is not secure). */
  public BlockLocation(BlockId block, long length) {
    this(block, length, BlockToken.getDefaultInstance());
  }

  /** {@code container:local:length}. */
  @Override
  public String toString() {
    return block.getContainerId() + ":" + block.getLocalId() + ":" + length;
  }

  public static BlockLocation parse(String text) {
    String[] parts = text.trim().split(":");
    if (parts.length != 3) {
      throw new IllegalArgumentException("not a block location (container:local:length): " + text);
    }
    return new BlockLocation(BlockId.newBuilder().setContainerId(Long.parseLong(parts[0]))
        .setLocalId(Long.parseLong(parts[1])).build(), Long.parseLong(parts[2]));
  }
}
