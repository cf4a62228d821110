package org.tropos.om.rpc;

import com.google.protobuf.ByteString;
import org.tropos.common.rpc.OmException;
import org.tropos.common.security.S3Signatures;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.CheckS3SignatureResponse;
import org.tropos.proto.om.OmResult;

/** Checks an S3 request's signature, as the gateway forwards it, against the access id's secret. */
final class S3SignatureCheck {
  private S3SignatureCheck() {
  }

  /**
   * The answer for a signature that matches one of the request's strings to sign under {@code secret}: V4's with
   * the key derived for its scope. Anything else is S3_SIGNATURE_MISMATCH.
   */
  static CheckS3SignatureResponse.Builder check(CheckS3SignatureRequest request, String secret) throws OmException {
    byte[] key = v4(request) ? S3Signatures.v4SigningKey(secret, request.getDate(), request.getRegion(),
        request.getService()) : null;
    requireMatch(request, key, secret);
    CheckS3SignatureResponse.Builder answer = CheckS3SignatureResponse.newBuilder();
    return key == null ? answer : answer.setSigningKey(ByteString.copyFrom(key));
  }

  /** Whether the request is signed with Signature V4 (it names a scope), rather than V2. */
  static boolean v4(CheckS3SignatureRequest request) {
    return !request.getDate().isEmpty();
  }

  /**
   * Fails with S3_SIGNATURE_MISMATCH unless the signature signs one of the request's strings, with {@code v4Key}
   * (the key of V4's scope) or {@code secret} (V2's key).
   */
  static void requireMatch(CheckS3SignatureRequest request, byte[] v4Key, String secret) throws OmException {
    if (request.getStringToSignCount() == 0 || request.getSignature().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a signature check needs what was signed and the signature");
    }
    for (String signed : request.getStringToSignList()) {
      String expected = v4(request) ? S3Signatures.v4Signature(v4Key, signed)
          : S3Signatures.v2Signature(secret, signed);
      if (S3Signatures.same(expected, request.getSignature())) {
        return;
      }
    }
    throw new OmException(OmResult.S3_SIGNATURE_MISMATCH, "the signature does not match what " + request
        .getAccessId() + "'s secret signs");
  }
}
