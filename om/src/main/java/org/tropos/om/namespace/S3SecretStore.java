package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.om.occ.OccRunner;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.S3Secret;

/**
 * The S3 secrets of access ids, kept in the database as {@link S3SecretSealing} says.
 *
 * <p>Thread-safe.
 */
public final class S3SecretStore {
  private final OccRunner runner;
  private final S3SecretSealing sealing;

  S3SecretStore(OccRunner runner, S3SecretSealing sealing) {
    this.runner = runner;
    this.sealing = sealing;
  }

  /** The secret of {@code accessId}; with {@code createIfMissing}, a new one if it has none. */
  public S3Secret get(String accessId, boolean createIfMissing) throws OmException {
    sealing.prepare();
    return runner.run("get the S3 secret of " + accessId, txn -> S3Secrets.get(txn, sealing, accessId,
        createIfMissing));
  }

  /**
   * The secret that signs {@code accessId}'s S3 requests; none (S3_SECRET_NOT_FOUND) while its S3 credentials are
   * disabled.
   */
  public String signingSecret(String accessId) throws OmException {
    sealing.prepare();
    return runner.run("read the signing secret of " + accessId, txn -> {
      if (S3Identities.disabled(txn, accessId)) {
        throw new OmException(OmResult.S3_SECRET_NOT_FOUND, "the S3 credentials of " + accessId + " are disabled");
      }
      return S3Secrets.get(txn, sealing, accessId, false).getSecret();
    });
  }

  public S3Secret set(String accessId, String secret) throws OmException {
    sealing.prepare();
    return runner.run("set the S3 secret of " + accessId, txn -> S3Secrets.set(txn, sealing, accessId, secret));
  }

  public void revoke(String accessId) throws OmException {
    runner.run("revoke the S3 secret of " + accessId, txn -> {
      S3Secrets.revoke(txn, accessId);
      return null;
    });
  }
}
