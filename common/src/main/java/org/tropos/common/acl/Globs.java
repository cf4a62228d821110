package org.tropos.common.acl;

import java.util.Locale;

/** AWS's wildcards in policies: {@code *} any run of characters, {@code ?} any one. */
final class Globs {
  private Globs() {
  }

  static boolean matches(String pattern, String text, boolean ignoreCase) {
    String p = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
    String t = ignoreCase ? text.toLowerCase(Locale.ROOT) : text;
    int pi = 0;
    int ti = 0;
    int star = -1;
    int resume = 0;
    while (ti < t.length()) {
      if (pi < p.length() && (p.charAt(pi) == '?' || p.charAt(pi) == t.charAt(ti))) {
        pi++;
        ti++;
      } else if (pi < p.length() && p.charAt(pi) == '*') {
        star = pi++;
        resume = ti;
      } else if (star >= 0) {
        pi = star + 1;
        ti = ++resume;
      } else {
        return false;
      }
    }
    while (pi < p.length() && p.charAt(pi) == '*') {
      pi++;
    }
    return pi == p.length();
  }
}
