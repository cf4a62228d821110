package org.tropos.common.security;

/** A certificate signing request the CA will not sign, and why. */
public final class RequestRefusedException extends Exception {
  public RequestRefusedException(String message) {
    super(message);
  }
}
