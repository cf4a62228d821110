package org.tropos.s3.auth;

import org.tropos.s3.S3Error;

/** Where the gateway finds the secret of an access id (the OM, through a short cache). */
@FunctionalInterface
public interface Credentials {
  /** An access id's secret, and whether the OM counts its user among the administrators. */
  record Credential(String secret, boolean administrator) {
  }

  /** The credential of {@code accessId}; throws InvalidAccessKeyId if it has none. */
  Credential of(String accessId) throws S3Error;
}
