package org.tropos.om.namespace;

import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.OmResult;

/**
 * A key to be encrypted under the KMS needs a data key the KMS makes under {@link #keyId}: the OM's service asks the
 * KMS for one (outside the transaction, which must not wait on the network) and opens the key again with it.
 */
public final class KmsKeyRequired extends OmException {
  private final String keyId;

  KmsKeyRequired(String keyId) {
    super(OmResult.INVALID_REQUEST, "SSE-KMS under KMS key '" + keyId + "' needs a data key the KMS made");
    this.keyId = keyId;
  }

  public String keyId() {
    return keyId;
  }
}
