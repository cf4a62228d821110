package org.tropos.s3.auth;

import org.tropos.s3.S3Error;

/** Where the gateway finds the secret of an access id (the OM, through a short cache). */
@FunctionalInterface
public interface Credentials {
  /** The secret of {@code accessId}; throws InvalidAccessKeyId if it has none. */
  String secretOf(String accessId) throws S3Error;
}
