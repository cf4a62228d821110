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
    if (request.getStringToSignCount() == 0 || request.getSignature().isEmpty()) {
      throw new OmException(OmResult.INVALID_REQUEST, "a signature check needs what was signed and the signature");
    }
    boolean v4 = !request.getDate().isEmpty();
    byte[] key = v4 ? S3Signatures.v4SigningKey(secret, request.getDate(), request.getRegion(),
        request.getService()) : null;
    for (String signed : request.getStringToSignList()) {
      String expected = v4 ? S3Signatures.v4Signature(key, signed) : S3Signatures.v2Signature(secret, signed);
      if (S3Signatures.same(expected, request.getSignature())) {
        CheckS3SignatureResponse.Builder answer = CheckS3SignatureResponse.newBuilder();
        return v4 ? answer.setSigningKey(ByteString.copyFrom(key)) : answer;
      }
    }
    throw new OmException(OmResult.S3_SIGNATURE_MISMATCH, "the signature does not match what " + request
        .getAccessId() + "'s secret signs");
  }
}
