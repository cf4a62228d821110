package org.tropos.s3.auth;

import java.util.List;
import org.tropos.common.acl.PolicyRequest;
import org.tropos.common.rpc.RequestConditions;
import org.tropos.common.rpc.S3RequestProofs;
import org.tropos.proto.om.CheckS3SignatureRequest;

/**
 * Who sent a request, as its signature proved: the access id (the user's name), whether the OM counts that user
 * among its administrators, the identity policies that apply to it ({@code policies}, as the OM answered the
 * signature's check), and what the signature fixed that the body must then match (the payload's hash, and
 * the signing key and seed signature that aws-chunked bodies continue), and the proof of the signature that the
 * request's calls to the OM carry ({@code proof}, what CheckS3Signature checks). An unsigned request comes from the
 * {@link #ANONYMOUS} caller. Once its request is routed, the caller also carries what it asks of buckets' policies
 * ({@code asks}: the request's S3 action, resource and conditions; null before).
 */
public record Caller(String accessId, boolean administrator, List<String> policies, String payloadHash,
    String amzDate, String scope, byte[] signingKey, String seedSignature, CheckS3SignatureRequest proof,
    PolicyRequest asks) {
  /** The caller of an unsigned request: only what is public is open to it. */
  public static final Caller ANONYMOUS = new Caller("", false, List.of(), RequestAuthenticator.UNSIGNED_PAYLOAD,
      null, null, null, null, null, null);

  public boolean anonymous() {
    return accessId.isEmpty();
  }

  /** The same caller, asking {@code request} of buckets' policies. */
  public Caller asking(PolicyRequest request) {
    return new Caller(accessId, administrator, policies, payloadHash, amzDate, scope, signingKey, seedSignature,
        proof, request);
  }

  /** The same caller asking to do {@code action} on {@code resource} (bucket[/key]), in the same conditions. */
  public Caller asking(String action, String resource) {
    return asking(new PolicyRequest(accessId, action, resource, asks.conditions()));
  }

  /** Makes the calling thread's calls to the OM act for this caller, in its request's conditions, until closed. */
  public S3RequestProofs.Acting acting() {
    return S3RequestProofs.acting(proof, asks == null ? null : RequestConditions.of(asks.conditions()));
  }
}
