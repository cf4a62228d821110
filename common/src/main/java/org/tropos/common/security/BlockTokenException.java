package org.tropos.common.security;

/** A block token that does not grant what it was shown for, and why. */
public final class BlockTokenException extends Exception {
  public BlockTokenException(String message) {
    super(message);
  }
}
