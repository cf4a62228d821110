package org.tropos.common.util;

/**
 * Checks that stay on in production (Java {@code assert} is off by default). A failed check is a programmer
 * error: {@link IllegalStateException}.
 */
public final class Preconditions {
  private Preconditions() {
  }

  /** Throws {@link IllegalStateException} with {@code format} ({@code {}} placeholders) unless {@code condition}. */
  public static void assertTrue(boolean condition, String format, Object... args) {
    if (!condition) {
      throw new IllegalStateException(format(format, args));
    }
  }

  static String format(String format, Object... args) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    for (Object arg : args) {
      int at = format.indexOf("{}", from);
      if (at < 0) {
        break;
      }
      out.append(format, from, at).append(arg);
      from = at + 2;
    }
    return out.append(format.substring(from)).toString();
  }
}
