package org.tropos.tools.cli;

/** Exit codes of {@code tropos}, which scripts may rely on. Numbers never change meaning. */
public final class ExitCodes {
  public static final int OK = 0;
  /** The operation ran and failed (the service answered with an error). */
  public static final int FAILED = 1;
  /** The command line is wrong. */
  public static final int USAGE = 2;
  /** The configuration is invalid; nothing was started or changed. */
  public static final int BAD_CONFIG = 3;
  /** The service could not be reached. */
  public static final int UNAVAILABLE = 4;

  private ExitCodes() {
  }
}
