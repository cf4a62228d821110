package org.tropos.om.token;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.DelegationTokenRow;

/**
 * The delegation tokens an OM has issued, rows of its database ({@link OmTable#DELEGATION_TOKENS}) written through
 * its transactions, so OM HA replicates them: a row lives from issue to cancellation or purge after expiry.
 */
final class DelegationTokenStore {
  private static final int PURGE_PER_TRANSACTION = 1000;

  private final OccRunner runner;

  DelegationTokenStore(OccRunner runner) {
    this.runner = runner;
  }

  void add(UUID id, ByteString identifier, long expiryMs) throws OmException {
    DelegationTokenRow row = DelegationTokenRow.newBuilder().setIdentifier(identifier).setExpiryMs(expiryMs).build();
    runner.run("store a delegation token", txn -> {
      txn.put(OmTable.DELEGATION_TOKENS, key(id), row);
      return null;
    });
  }

  /** The row of token {@code id}, if it was issued and is neither cancelled nor purged. */
  Optional<DelegationTokenRow> find(UUID id) throws OmException {
    return runner.run("look up a delegation token", txn -> txn.get(OmTable.DELEGATION_TOKENS, key(id),
        DelegationTokenRow.parser()));
  }

  /** Sets the expiry of token {@code id}, still the token {@code identifier} and not expired when this commits. */
  void renew(UUID id, ByteString identifier, long expiryMs) throws OmException {
    runner.run("renew a delegation token", txn -> {
      DelegationTokenRow row = live(txn.get(OmTable.DELEGATION_TOKENS, key(id), DelegationTokenRow.parser()),
          identifier, txn.nowMillis());
      txn.put(OmTable.DELEGATION_TOKENS, key(id), row.toBuilder().setExpiryMs(expiryMs).build());
      return null;
    });
  }

  void remove(UUID id, ByteString identifier) throws OmException {
    runner.run("cancel a delegation token", txn -> {
      live(txn.get(OmTable.DELEGATION_TOKENS, key(id), DelegationTokenRow.parser()), identifier, txn.nowMillis());
      txn.delete(OmTable.DELEGATION_TOKENS, key(id));
      return null;
    });
  }

  /** Deletes the rows of tokens expired by {@code nowMs}; returns how many. */
  long purgeExpired(long nowMs) throws OmException {
    long total = 0;
    int removed;
    do {
      removed = runner.run("purge expired delegation tokens", txn -> {
        int[] count = {0};
        byte[] all = new byte[0];
        txn.scan(OmTable.DELEGATION_TOKENS, all, all, DelegationTokenRow.parser(), (key, row) -> {
          if (row.getExpiryMs() <= nowMs) {
            txn.delete(OmTable.DELEGATION_TOKENS, key);
            count[0]++;
          }
          return count[0] < PURGE_PER_TRANSACTION;
        });
        return count[0];
      });
      total += removed;
    } while (removed == PURGE_PER_TRANSACTION);
    return total;
  }

  /** {@code row} when it is the token {@code identifier} and has not expired by {@code nowMs}. */
  static DelegationTokenRow live(Optional<DelegationTokenRow> row, ByteString identifier, long nowMs)
      throws OmException {
    if (row.isEmpty() || !row.get().getIdentifier().equals(identifier)) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token was cancelled, or never issued here");
    }
    if (row.get().getExpiryMs() <= nowMs) {
      throw new OmException(OmResult.INVALID_TOKEN, "the delegation token expired at "
          + java.time.Instant.ofEpochMilli(row.get().getExpiryMs()));
    }
    return row.get();
  }

  private static byte[] key(UUID id) {
    return id.toString().getBytes(StandardCharsets.UTF_8);
  }
}
