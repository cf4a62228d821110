package org.tropos.common.security;

import java.util.Locale;
import java.util.Optional;

/** Kerberos principal names as Hadoop writes them: {@code om/_HOST@REALM}, mapped to short user names. */
public final class KerberosPrincipals {
  private static final String HOST = "_HOST";

  private KerberosPrincipals() {
  }

  /** {@code pattern} with {@code _HOST} replaced by {@code host}, lower-cased as Hadoop does. */
  public static String resolve(String pattern, String host) {
    return pattern.replace(HOST, host.toLowerCase(Locale.ROOT));
  }

  /** The realm of {@code principal}, if it names one. */
  public static Optional<String> realm(String principal) {
    int at = principal.lastIndexOf('@');
    return at < 0 ? Optional.empty() : Optional.of(principal.substring(at + 1));
  }

  /**
   * The user {@code principal} acts as, Hadoop's default rule: a principal of {@code realm} is its first component
   * ({@code alice@R} and {@code alice/admin@R} are alice, {@code om/host@R} is om); one of another realm is no user
   * here (cross-realm trust would need mapping rules of its own).
   */
  public static Optional<String> shortName(String principal, String realm) {
    if (!realm(principal).equals(Optional.of(realm))) {
      return Optional.empty();
    }
    String first = firstComponent(principal);
    return first.isEmpty() ? Optional.empty() : Optional.of(first);
  }

  /** The first component of a principal or user name, realm dropped: {@code yarn/rm@R} and {@code yarn} are yarn. */
  public static String firstComponent(String name) {
    String stripped = name.strip();
    int end = stripped.length();
    for (char separator : new char[] {'/', '@'}) {
      int at = stripped.indexOf(separator);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    return stripped.substring(0, end);
  }
}
