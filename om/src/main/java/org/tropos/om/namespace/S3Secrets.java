package org.tropos.om.namespace;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.db.S3SecretRow;

/**
 * S3 credentials. The access id is a user name, as in Ozone; a new secret is 32 random bytes in hex, drawn
 * while the request executes, so the write set (what OM HA replicates) carries it, sealed as
 * {@link S3SecretSealing} says (its nonce drawn then too).
 */
final class S3Secrets {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final int MAX_SECRET_CHARS = 256;

  private S3Secrets() {
  }

  static S3Secret get(Txn txn, S3SecretSealing sealing, String accessId, boolean createIfMissing)
      throws OmException {
    checkAccessId(accessId);
    byte[] key = OmDbKeys.utf8(accessId);
    Optional<S3SecretRow> row = txn.get(OmTable.S3_SECRETS, key, S3SecretRow.parser());
    if (row.isPresent()) {
      return info(row.get(), sealing.secretOf(row.get()));
    }
    if (!createIfMissing) {
      throw new OmException(OmResult.S3_SECRET_NOT_FOUND, "no S3 secret for " + accessId);
    }
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    return store(txn, sealing, accessId, HexFormat.of().formatHex(secret));
  }

  static S3Secret set(Txn txn, S3SecretSealing sealing, String accessId, String secret) throws OmException {
    checkAccessId(accessId);
    if (secret.isEmpty() || secret.length() > MAX_SECRET_CHARS || secret.chars().anyMatch(c -> c <= ' ' || c > '~')) {
      throw new OmException(OmResult.INVALID_REQUEST, "an S3 secret is 1 to " + MAX_SECRET_CHARS
          + " printable ASCII characters without spaces");
    }
    return store(txn, sealing, accessId, secret);
  }

  static void revoke(Txn txn, String accessId) throws OmException {
    checkAccessId(accessId);
    byte[] key = OmDbKeys.utf8(accessId);
    if (txn.get(OmTable.S3_SECRETS, key, S3SecretRow.parser()).isEmpty()) {
      throw new OmException(OmResult.S3_SECRET_NOT_FOUND, "no S3 secret for " + accessId);
    }
    txn.delete(OmTable.S3_SECRETS, key);
  }

  private static S3Secret store(Txn txn, S3SecretSealing sealing, String accessId, String secret)
      throws OmException {
    S3SecretRow row = sealing.row(accessId, secret).setCreationTimeMs(txn.nowMillis()).build();
    txn.put(OmTable.S3_SECRETS, OmDbKeys.utf8(accessId), row);
    return info(row, secret);
  }

  private static S3Secret info(S3SecretRow row, String secret) {
    return S3Secret.newBuilder().setAccessId(row.getAccessId()).setSecret(secret)
        .setCreationTimeMs(row.getCreationTimeMs()).build();
  }

  private static void checkAccessId(String accessId) throws OmException {
    if (accessId.isEmpty() || accessId.length() > MAX_SECRET_CHARS || accessId.chars().anyMatch(c -> c <= ' ')) {
      throw new OmException(OmResult.INVALID_REQUEST, "an S3 access id is a user name of 1 to "
          + MAX_SECRET_CHARS + " characters without spaces");
    }
  }
}
