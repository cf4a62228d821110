package org.tropos.s3.auth;

import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.proto.om.CheckS3SignatureRequest;

/**
 * Who sent a request, as its signature proved: the access id (the user's name), whether the OM counts that user
 * among its administrators, and what the signature fixed that the body must then match (the payload's hash, and
 * the signing key and seed signature that aws-chunked bodies continue), and the proof of the signature that the
 * request's calls to the OM carry ({@code proof}, what CheckS3Signature checks). An unsigned request comes from the
 * {@link #ANONYMOUS} caller.
 */
public record Caller(String accessId, boolean administrator, String payloadHash, String amzDate, String scope,
    byte[] signingKey, String seedSignature, CheckS3SignatureRequest proof) {
  /** The caller of an unsigned request: only what is public is open to it. */
  public static final Caller ANONYMOUS = new Caller("", false, RequestAuthenticator.UNSIGNED_PAYLOAD, null, null,
      null, null, null);

  public boolean anonymous() {
    return accessId.isEmpty();
  }

  /** Makes the calling thread's calls to the OM act for this caller until the result is closed. */
  public S3RequestProofs.Acting acting() {
    return proof == null ? () -> { } : S3RequestProofs.acting(proof);
  }
}
