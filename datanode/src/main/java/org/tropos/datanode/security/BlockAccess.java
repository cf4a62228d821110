package org.tropos.datanode.security;

import java.io.IOException;
import java.util.List;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.security.BlockTokenException;
import org.tropos.common.security.BlockTokens;
import org.tropos.proto.datanode.DatanodeResult;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;

/**
 * Who may read or write a block on this datanode: in a secure cluster the bearer of a block token that verifies
 * ({@link BlockTokens}), anyone otherwise. The datanode's own container operations (copies, closes) carry
 * container tokens it signs itself.
 */
public final class BlockAccess {
  /** Everything allowed: a cluster that is not secure, and tests of other things. */
  public static final BlockAccess OPEN = new BlockAccess(BlockTokens.off(), "");

  private final BlockTokens tokens;
  private final String self;

  /** @param self whom this datanode's own container tokens name */
  public BlockAccess(BlockTokens tokens, String self) {
    this.tokens = tokens;
    this.self = self;
  }

  /** Refused with BLOCK_TOKEN_VERIFICATION_FAILED unless {@code token} lets its bearer do {@code mode} on it. */
  public void check(BlockToken token, BlockId block, AccessMode mode) throws DatanodeException {
    try {
      tokens.verify(token, block, mode);
    } catch (BlockTokenException e) {
      throw new DatanodeException(DatanodeResult.BLOCK_TOKEN_VERIFICATION_FAILED, e.getMessage());
    } catch (IOException e) {
      throw new DatanodeException(DatanodeResult.DATANODE_BUSY, "cannot verify the block token now: "
          + e.getMessage(), e);
    }
  }

  /** A token for this datanode's own work on container {@code containerId}; none when tokens are off. */
  public BlockToken forContainer(long containerId, AccessMode mode) throws IOException {
    return tokens.enabled() ? tokens.forContainer(containerId, self, List.of(mode)) : BlockToken.getDefaultInstance();
  }
}
