package org.tropos.om.scm;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.db.DeletedKeyRow;
import org.tropos.proto.scm.KeyBlocks;

/**
 * Hands the blocks of deleted keys to SCM, in the background: a key's row in {@code deletedKeys} was written in
 * the same transaction that removed the key from the namespace, so no block goes before its key is gone. A row
 * is forgotten only after SCM recorded it durably; a row SCM did not take stays for the next round (SCM
 * deleting a block twice is harmless).
 *
 * <p>Meant for one background thread.
 */
public final class DeletedKeyHandoff {
  private static final int KEYS_PER_CALL = 1000;

  private final OccRunner runner;
  private final ScmBlocks scm;

  public DeletedKeyHandoff(OccRunner runner, ScmBlocks scm) {
    this.runner = runner;
    this.scm = scm;
  }

  /** Hands over everything queued now; returns how many keys SCM took. */
  public long handOverAll() throws OmException {
    long total = 0;
    while (true) {
      List<byte[]> rows = new ArrayList<>();
      List<KeyBlocks> keys = new ArrayList<>();
      runner.run("list deleted keys", txn -> {
        byte[] all = new byte[0];
        txn.scan(OmTable.DELETED_KEYS, all, all, DeletedKeyRow.parser(), (k, row) -> {
          rows.add(k);
          keys.add(KeyBlocks.newBuilder().setKeyId(HexFormat.of().formatHex(k))
              .addAllBlocks(row.getBlocksList().stream().map(KeyBlock::getBlockId).toList()).build());
          return rows.size() < KEYS_PER_CALL;
        });
        return null;
      });
      if (rows.isEmpty()) {
        return total;
      }
      Set<String> accepted = scm.deleteKeyBlocks(keys);
      if (accepted.isEmpty()) {
        return total;
      }
      runner.run("forget handed-over keys", txn -> {
        for (byte[] key : rows) {
          if (accepted.contains(HexFormat.of().formatHex(key))) {
            txn.delete(OmTable.DELETED_KEYS, key);
          }
        }
        return null;
      });
      total += accepted.size();
      if (rows.size() < KEYS_PER_CALL) {
        return total;
      }
    }
  }
}
