package org.tropos.om.namespace;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.SealingKey;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.db.S3SecretRow;

/**
 * How S3 secrets are kept in the OM's database: in a secure cluster sealed with the key SCM hands the OMs
 * ({@link SealingKey}: AES-256-GCM, the access id bound to the row), so the database, its checkpoints and its
 * log hold no secret in the clear; in a cluster without security in plaintext, as before. A row written in
 * plaintext before sealing began still opens, and is sealed when its secret is next set.
 *
 * <p>Thread-safe.
 */
public final class S3SecretSealing {
  private static final S3SecretSealing PLAINTEXT = new S3SecretSealing(null);

  private final SealingKeySource source;

  private S3SecretSealing(SealingKeySource source) {
    this.source = source;
  }

  /** Secrets in plaintext (a cluster without security). */
  public static S3SecretSealing plaintext() {
    return PLAINTEXT;
  }

  /** Secrets sealed with the key {@code source} gives. */
  public static S3SecretSealing sealedWith(SealingKeySource source) {
    return new S3SecretSealing(source);
  }

  /** The row keeping {@code secret} for {@code accessId}. */
  S3SecretRow.Builder row(String accessId, String secret) throws OmException {
    S3SecretRow.Builder row = S3SecretRow.newBuilder().setAccessId(accessId);
    if (source == null) {
      return row.setSecret(secret);
    }
    SealingKey key = key();
    return row.setSealedSecret(ByteString.copyFrom(key.seal(secret.getBytes(StandardCharsets.UTF_8),
        context(accessId)))).setSealingKeyId(key.id());
  }

  /** The secret {@code row} keeps. */
  String secretOf(S3SecretRow row) throws OmException {
    if (row.getSealedSecret().isEmpty()) {
      return row.getSecret();
    }
    if (source == null) {
      throw new OmException(OmResult.INTERNAL_ERROR, "the S3 secret of " + row.getAccessId() + " is sealed, and"
          + " this OM runs without security: it has no key to open it");
    }
    SealingKey key = key();
    if (!key.id().equals(row.getSealingKeyId())) {
      throw new OmException(OmResult.INTERNAL_ERROR, "the S3 secret of " + row.getAccessId() + " is sealed with"
          + " key " + row.getSealingKeyId() + ", not SCM's " + key.id());
    }
    try {
      return new String(key.open(row.getSealedSecret().toByteArray(), context(row.getAccessId())),
          StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new OmException(OmResult.INTERNAL_ERROR, "the sealed S3 secret of " + row.getAccessId()
          + " does not open: it was changed or moved from another row");
    }
  }

  /**
   * Has the key at hand before a transaction needs it: the first fetch is a call to SCM, which must not run inside
   * an optimistic transaction (nor again on each of its retries).
   */
  void prepare() throws OmException {
    if (source != null) {
      key();
    }
  }

  private SealingKey key() throws OmException {
    try {
      return source.key();
    } catch (IOException e) {
      throw new OmException(OmResult.OM_NOT_READY, "S3 secrets cannot be read or written yet: " + e.getMessage());
    }
  }

  private static byte[] context(String accessId) {
    return ("s3-secret:" + accessId).getBytes(StandardCharsets.UTF_8);
  }
}
