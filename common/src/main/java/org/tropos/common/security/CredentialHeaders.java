package org.tropos.common.security;

import io.grpc.Metadata;

/**
 * The headers in which a user's client without a certificate proves who it is with every call (over TLS only, so
 * nobody on the path reads them): a Kerberos AP-REQ for the server's principal, or a delegation token of the OM.
 */
public final class CredentialHeaders {
  public static final Metadata.Key<byte[]> KERBEROS = Metadata.Key.of("tropos-kerberos-bin",
      Metadata.BINARY_BYTE_MARSHALLER);
  public static final Metadata.Key<byte[]> TOKEN = Metadata.Key.of("tropos-token-bin",
      Metadata.BINARY_BYTE_MARSHALLER);

  private CredentialHeaders() {
  }

  /** Whether a call's headers carry a credential of either kind. */
  public static boolean carriesOne(Metadata headers) {
    return headers.containsKey(KERBEROS) || headers.containsKey(TOKEN);
  }
}
