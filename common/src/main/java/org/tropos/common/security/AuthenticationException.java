package org.tropos.common.security;

/** A call's credential proves nobody: forged, expired, for another server, or of a kind the server does not take. */
public final class AuthenticationException extends Exception {
  public AuthenticationException(String message) {
    super(message);
  }

  public AuthenticationException(String message, Throwable cause) {
    super(message, cause);
  }
}
