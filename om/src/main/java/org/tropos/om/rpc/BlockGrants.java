package org.tropos.om.rpc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.BlockTokenException;
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
 * them a datanode neither takes a chunk nor serves a byte; a writer gives the WRITE tokens back with its commit.
 * Nothing is added or checked when the cluster is not secure.
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

  /**
   * Checks that each block a commit lists was given to the writer: it carries, in the same order, the WRITE token
   * the OM handed out with the block, issued to the caller (or, through the S3 gateway, which shares its leased
   * blocks among the users it serves, to anyone). Expired tokens still prove it: a long write commits what it
   * wrote. Without this a writer could list another key's blocks and then be handed READ tokens for them.
   */
  void checkCommitted(List<KeyBlock> blocks, List<BlockToken> proofs, boolean fromGateway) throws OmException {
    if (!tokens.enabled()) {
      return;
    }
    if (proofs.size() != blocks.size()) {
      throw new OmException(OmResult.PERMISSION_DENIED, "the commit lists " + blocks.size() + " blocks but carries "
          + proofs.size() + " block tokens: each block needs the WRITE token it was handed out with");
    }
    String caller = Callers.current();
    for (int i = 0; i < blocks.size(); i++) {
      BlockId block = blocks.get(i).getBlockId();
      String grantee;
      try {
        grantee = tokens.grantee(proofs.get(i), block, AccessMode.ACCESS_WRITE);
      } catch (BlockTokenException e) {
        throw new OmException(OmResult.PERMISSION_DENIED, "block " + block.getContainerId() + ":"
            + block.getLocalId() + " was not handed out to this writer: " + e.getMessage());
      } catch (IOException e) {
        throw new OmException(OmResult.SCM_UNAVAILABLE, "cannot check a block token: " + e.getMessage());
      }
      if (!fromGateway && !grantee.equals(caller)) {
        throw new OmException(OmResult.PERMISSION_DENIED, "block " + block.getContainerId() + ":"
            + block.getLocalId() + " was handed out to user '" + grantee + "', not to the caller");
      }
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
