package org.tropos.om.scm;

import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.DeletedKeyBlocks;
import org.tropos.om.namespace.Namespace;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.scm.KeyBlocks;

/**
 * Hands the blocks of deleted keys to SCM, in the background: a key's row in {@code deletedKeys} was written in
 * the same transaction that removed the key from the namespace, so no block goes before its key is gone, and a
 * block another key still references (a server-side copy) does not go at all. A row
 * is forgotten only after SCM recorded it durably; a row SCM did not take stays for the next round (SCM
 * deleting a block twice is harmless).
 *
 * <p>Meant for one background thread.
 */
public final class DeletedKeyHandoff {
  private static final int KEYS_PER_CALL = 1000;

  private final Namespace namespace;
  private final ScmBlocks scm;

  public DeletedKeyHandoff(Namespace namespace, ScmBlocks scm) {
    this.namespace = namespace;
    this.scm = scm;
  }

  /** Hands over everything queued now; returns how many keys SCM took. */
  public long handOverAll() throws OmException {
    long total = 0;
    while (true) {
      List<DeletedKeyBlocks> released = namespace.releaseDeletedKeys(KEYS_PER_CALL);
      if (released.isEmpty()) {
        return total;
      }
      List<KeyBlocks> keys = released.stream().map(r -> KeyBlocks.newBuilder()
          .setKeyId(HexFormat.of().formatHex(r.rowKey()))
          .addAllBlocks(r.blocks().stream().map(KeyBlock::getBlockId).toList()).build()).toList();
      Set<String> accepted = scm.deleteKeyBlocks(keys);
      if (accepted.isEmpty()) {
        return total;
      }
      namespace.forgetDeletedKeys(released.stream().map(DeletedKeyBlocks::rowKey)
          .filter(k -> accepted.contains(HexFormat.of().formatHex(k))).toList());
      total += accepted.size();
      if (released.size() < KEYS_PER_CALL) {
        return total;
      }
    }
  }
}
