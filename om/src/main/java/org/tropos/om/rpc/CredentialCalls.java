package org.tropos.om.rpc;

import org.tropos.common.rpc.Callers;
import org.tropos.common.rpc.OmException;
import org.tropos.om.namespace.Namespace;
import org.tropos.om.token.DelegationTokens;
import org.tropos.proto.om.CancelDelegationTokenRequest;
import org.tropos.proto.om.CancelDelegationTokenResponse;
import org.tropos.proto.om.CheckS3SignatureRequest;
import org.tropos.proto.om.CheckS3SignatureResponse;
import org.tropos.proto.om.GetDelegationTokenRequest;
import org.tropos.proto.om.GetDelegationTokenResponse;
import org.tropos.proto.om.GetS3SecretRequest;
import org.tropos.proto.om.GetS3SecretResponse;
import org.tropos.proto.om.HasS3SecretRequest;
import org.tropos.proto.om.HasS3SecretResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.RenewDelegationTokenRequest;
import org.tropos.proto.om.RenewDelegationTokenResponse;
import org.tropos.proto.om.RevokeS3SecretRequest;
import org.tropos.proto.om.RevokeS3SecretResponse;
import org.tropos.proto.om.S3Secret;
import org.tropos.proto.om.SetS3SecretRequest;
import org.tropos.proto.om.SetS3SecretResponse;

/**
 * The credentials the OM keeps for callers that prove themselves without a certificate or a Kerberos ticket: S3
 * users' secrets (and the check of a request's signature with one, for the gateway) and delegation tokens. They are
 * together, apart from the namespace calls, because each is about who a caller is rather than what it may touch in
 * the namespace; a secret is read or changed only by its user or an administrator.
 */
final class CredentialCalls {
  private final Namespace namespace;
  private final Administrators administrators;
  private final DelegationTokens tokens;

  CredentialCalls(Namespace namespace, Administrators administrators, DelegationTokens tokens) {
    this.namespace = namespace;
    this.administrators = administrators;
    this.tokens = tokens;
  }

  GetS3SecretResponse getS3Secret(GetS3SecretRequest r) throws OmException {
    administrators.checkActsFor(r.getAccessId(), "read the S3 secret");
    return GetS3SecretResponse.newBuilder().setSecret(withRole(namespace.s3Secrets().get(r.getAccessId(),
        r.getCreateIfMissing()))).build();
  }

  SetS3SecretResponse setS3Secret(SetS3SecretRequest r) throws OmException {
    administrators.checkActsFor(r.getAccessId(), "set the S3 secret");
    return SetS3SecretResponse.newBuilder().setSecret(withRole(namespace.s3Secrets().set(r.getAccessId(),
        r.getSecret()))).build();
  }

  RevokeS3SecretResponse revokeS3Secret(RevokeS3SecretRequest r) throws OmException {
    administrators.checkActsFor(r.getAccessId(), "revoke the S3 secret");
    namespace.s3Secrets().revoke(r.getAccessId());
    return RevokeS3SecretResponse.getDefaultInstance();
  }

  /** Whether the access id has a secret, without handing it out: only the gateway is admitted to ask. */
  HasS3SecretResponse hasS3Secret(HasS3SecretRequest r) throws OmException {
    try {
      namespace.s3Secrets().get(r.getAccessId(), false);
      return HasS3SecretResponse.newBuilder().setExists(true).build();
    } catch (OmException e) {
      if (e.result() != OmResult.S3_SECRET_NOT_FOUND) {
        throw e;
      }
      return HasS3SecretResponse.getDefaultInstance();
    }
  }

  CheckS3SignatureResponse checkS3Signature(CheckS3SignatureRequest r) throws OmException {
    return S3SignatureCheck.check(r, namespace.s3Secrets().signingSecret(r.getAccessId())).setAdministrator(
        administrators.contains(r.getAccessId())).addAllIdentityPolicies(namespace.identities().policiesOf(
        r.getAccessId(), administrators.groupsOf(r.getAccessId()))).build();
  }

  private S3Secret withRole(S3Secret secret) {
    return secret.toBuilder().setAdministrator(administrators.contains(secret.getAccessId())).build();
  }

  GetDelegationTokenResponse getDelegationToken(GetDelegationTokenRequest r) throws OmException {
    return tokens.issue(Callers.current(), Callers.authentication(), r.getRenewer());
  }

  RenewDelegationTokenResponse renewDelegationToken(RenewDelegationTokenRequest r) throws OmException {
    return RenewDelegationTokenResponse.newBuilder().setExpiryMs(tokens.renew(r.getToken(), Callers.current(),
        Callers.authentication())).build();
  }

  CancelDelegationTokenResponse cancelDelegationToken(CancelDelegationTokenRequest r) throws OmException {
    tokens.cancel(r.getToken(), Callers.current());
    return CancelDelegationTokenResponse.getDefaultInstance();
  }
}
