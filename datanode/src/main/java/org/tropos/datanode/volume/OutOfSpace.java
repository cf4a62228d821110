package org.tropos.datanode.volume;

/** Tells a full file system (ENOSPC) from a failing disk: Java reports ENOSPC only as an IOException's message. */
public final class OutOfSpace {
  private static final String MESSAGE = "No space left on device";

  private OutOfSpace() {
  }

  /** Whether {@code failure}, or what caused it, is a file system out of space. */
  public static boolean causes(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(MESSAGE)) {
        return true;
      }
    }
    return false;
  }
}
