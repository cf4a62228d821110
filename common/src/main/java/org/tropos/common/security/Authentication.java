package org.tropos.common.security;

/** How the server knows who the caller of a call is. */
public enum Authentication {
  /** Not at all: the client named its user (a cluster that is not secure), or nobody. */
  SIMPLE,
  /** The user's certificate, shown in the TLS handshake. */
  CERTIFICATE,
  /**
   * The S3 gateway's certificate and the signature of the S3 request the gateway serves, which the server checked
   * against the S3 user's secret: the call acts for that S3 user.
   */
  GATEWAY,
  /** A Kerberos ticket for the server's principal, sent with the call. */
  KERBEROS,
  /** A delegation token the OM issued, sent with the call. */
  TOKEN
}
