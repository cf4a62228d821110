package org.tropos.datanode.volume;

import org.tropos.common.util.Causes;

/** Tells a full file system (ENOSPC) from a failing disk: Java reports ENOSPC only as an IOException's message. */
public final class OutOfSpace {
  private static final String MESSAGE = "No space left on device";

  private OutOfSpace() {
  }

  /** Whether {@code failure}, or what caused it, is a file system out of space. */
  public static boolean causes(Throwable failure) {
    return Causes.any(failure, t -> t.getMessage() != null && t.getMessage().contains(MESSAGE));
  }
}
