package org.tropos.om.rpc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.BlockTokens;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.AllocateBlockResponse;

/**
 * The block tokens the OM hands out with block locations in a secure cluster: a WRITE token with each block it
 * allocates to a writer, a READ token with each block of a key it looks up, both naming the caller. Without
 * them a datanode neither takes a chunk nor serves a byte. Nothing is added when the cluster is not secure.
 */
final class BlockGrants {
  private static final List<AccessMode> WRITE = List.of(AccessMode.ACCESS_WRITE);
  private static final List<AccessMode> READ = List.of(AccessMode.ACCESS_READ);

  private final BlockTokens tokens;

  BlockGrants(BlockTokens tokens) {
    this.tokens = tokens;
  }

  /** {@code block} with the caller's WRITE token for it. */
  AllocateBlockResponse forWriter(AllocateBlockResponse block) throws OmException {
    if (!tokens.enabled()) {
      return block;
    }
    return block.toBuilder().setToken(token(block.getBlockId(), WRITE)).build();
  }

  List<AllocateBlockResponse> forWriter(List<AllocateBlockResponse> blocks) throws OmException {
    List<AllocateBlockResponse> granted = new ArrayList<>(blocks.size());
    for (AllocateBlockResponse block : blocks) {
      granted.add(forWriter(block));
    }
    return granted;
  }

  /** Adds the caller's READ token for each of the looked-up key's blocks, in their order. */
  void forReader(LookupKeyResponse.Builder lookup) throws OmException {
    if (!tokens.enabled()) {
      return;
    }
    for (KeyBlock block : lookup.getKey().getBlocksList()) {
      lookup.addBlockTokens(token(block.getBlockId(), READ));
    }
  }

  private BlockToken token(BlockId block, List<AccessMode> modes) throws OmException {
    try {
      return tokens.issue(Callers.current(), block, modes);
    } catch (IOException e) {
      throw new OmException(OmResult.SCM_UNAVAILABLE, "cannot sign a block token: " + e.getMessage());
    }
  }
}
