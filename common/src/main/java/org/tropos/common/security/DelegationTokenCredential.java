package org.tropos.common.security;

import io.grpc.Metadata;
import org.tropos.proto.om.DelegationToken;

/** A delegation token of the OM as a call credential: sent to the OM, which issued it, and to no other server. */
public final class DelegationTokenCredential implements UserCredential {
  private final byte[] token;

  public DelegationTokenCredential(DelegationToken token) {
    this.token = token.toByteArray();
  }

  @Override
  public void attach(Metadata headers, ServiceRole role, String host) {
    if (role == ServiceRole.OM) {
      headers.put(CredentialHeaders.TOKEN, token);
    }
  }
}
