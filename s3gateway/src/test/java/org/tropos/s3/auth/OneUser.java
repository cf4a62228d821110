package org.tropos.s3.auth;

import java.util.List;
import org.tropos.common.security.S3Signatures;
import org.tropos.s3.error.S3Error;
import org.tropos.s3.error.S3ErrorCode;

/**
 * One user whose signatures are checked here with the same arithmetic the OM uses ({@link S3Signatures}), for
 * tests of what the gateway builds from a request (AWS's published examples).
 */
final class OneUser implements S3Users {
  private final String accessId;
  private final String secret;

  OneUser(String accessId, String secret) {
    this.accessId = accessId;
    this.secret = secret;
  }

  @Override
  public Proven checkV4(String id, String date, String region, String service, String stringToSign,
      String signature) throws S3Error {
    requireKnown(id);
    byte[] key = S3Signatures.v4SigningKey(secret, date, region, service);
    if (!S3Signatures.same(S3Signatures.v4Signature(key, stringToSign), signature)) {
      throw S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.error();
    }
    return new Proven(false, List.of(), key);
  }

  @Override
  public Proven checkV2(String id, List<String> stringsToSign, String signature) throws S3Error {
    requireKnown(id);
    for (String signed : stringsToSign) {
      if (S3Signatures.same(S3Signatures.v2Signature(secret, signed), signature)) {
        return new Proven(false, List.of(), new byte[0]);
      }
    }
    throw S3ErrorCode.SIGNATURE_DOES_NOT_MATCH.error();
  }

  @Override
  public void requireKnown(String id) throws S3Error {
    if (!id.equals(accessId)) {
      throw S3ErrorCode.INVALID_ACCESS_KEY_ID.error("unknown " + id);
    }
  }
}
