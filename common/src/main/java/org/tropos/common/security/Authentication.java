package org.tropos.common.security;

/** How the server knows who the caller of a call is. */
public enum Authentication {
  /** Not at all: the client named its user (a cluster that is not secure), or nobody. */
  SIMPLE,
  /** The user's certificate, shown in the TLS handshake. */
  CERTIFICATE,
  /** The S3 gateway's certificate; the gateway names the S3 user whose request signature it checked. */
  GATEWAY,
  /** A Kerberos ticket for the server's principal, sent with the call. */
  KERBEROS,
  /** A delegation token the OM issued, sent with the call. */
  TOKEN
}
