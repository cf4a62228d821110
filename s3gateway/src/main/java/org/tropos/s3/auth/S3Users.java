package org.tropos.s3.auth;

import java.util.List;
import org.tropos.s3.error.S3Error;

/**
 * Who proves an S3 request's signature: the OM, which alone holds the users' secrets. The gateway builds what was
 * signed from the request; it never sees a secret.
 */
public interface S3Users {
  /**
   * What a matching signature proves: whether its user administers the OM, the identity policies that apply to it,
   * and V4's key for its scope.
   */
  record Proven(boolean administrator, List<String> policies, byte[] signingKey) {
    public Proven {
      policies = List.copyOf(policies);
    }
  }

  /**
   * Checks a Signature V4 over {@code stringToSign} in the scope of {@code date} ({@code yyyyMMdd}), region and
   * service; throws InvalidAccessKeyId or SignatureDoesNotMatch.
   */
  Proven checkV4(String accessId, String date, String region, String service, String stringToSign, String signature)
      throws S3Error;

  /** Checks a Signature V2 over any of {@code stringsToSign}; throws as {@link #checkV4}. */
  Proven checkV2(String accessId, List<String> stringsToSign, String signature) throws S3Error;

  /** Throws InvalidAccessKeyId unless {@code accessId} has S3 credentials. */
  void requireKnown(String accessId) throws S3Error;
}
