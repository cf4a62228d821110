package org.tropos.om.namespace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.db.BlockRefRow;

/**
 * Reference counts of blocks that several keys share (a server-side copy references its source's blocks instead
 * of copying bytes). Only shared blocks have a row; a block without one has a single owner. A deleted key's
 * blocks go to SCM only when their last reference goes ({@link #release}).
 */
final class BlockRefs {
  private BlockRefs() {
  }

  /** One more reference to each block (a block listed twice gets two). */
  static void share(Txn txn, List<KeyBlock> blocks) throws OmException {
    for (Map.Entry<BlockId, Integer> e : counted(blocks).entrySet()) {
      byte[] key = key(e.getKey());
      long now = references(txn, key);
      txn.put(OmTable.BLOCK_REFS, key, BlockRefRow.newBuilder().setReferences(now + e.getValue()).build());
    }
  }

  /**
   * Drops one reference to each block (of a key being deleted); returns the blocks nothing references any more,
   * which may be deleted.
   */
  static List<KeyBlock> release(Txn txn, List<KeyBlock> blocks) throws OmException {
    List<KeyBlock> unreferenced = new ArrayList<>();
    Map<BlockId, Integer> counts = counted(blocks);
    for (KeyBlock block : blocks) {
      Integer dropped = counts.remove(block.getBlockId());
      if (dropped == null) {
        continue;
      }
      byte[] key = key(block.getBlockId());
      long left = references(txn, key) - dropped;
      if (left <= 0) {
        unreferenced.add(block);
        if (dropped > 1) {
          txn.delete(OmTable.BLOCK_REFS, key);
        }
      } else if (left == 1) {
        txn.delete(OmTable.BLOCK_REFS, key);
      } else {
        txn.put(OmTable.BLOCK_REFS, key, BlockRefRow.newBuilder().setReferences(left).build());
      }
    }
    return unreferenced;
  }

  private static long references(Txn txn, byte[] key) throws OmException {
    Optional<BlockRefRow> row = txn.get(OmTable.BLOCK_REFS, key, BlockRefRow.parser());
    return row.map(BlockRefRow::getReferences).orElse(1L);
  }

  private static Map<BlockId, Integer> counted(List<KeyBlock> blocks) {
    Map<BlockId, Integer> counts = new LinkedHashMap<>();
    blocks.forEach(b -> counts.merge(b.getBlockId(), 1, Integer::sum));
    return counts;
  }

  private static byte[] key(BlockId id) {
    return OmDbKeys.ids(id.getContainerId(), id.getLocalId());
  }
}
