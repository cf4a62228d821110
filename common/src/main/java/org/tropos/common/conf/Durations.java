package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as configuration writes them: {@code 30s}, {@code 500ms}, {@code 5m}, {@code 1h}, {@code 2d},
 * {@code 100us}, {@code 10ns}. A bare number takes the key's default unit, as Hadoop's
 * {@code getTimeDuration} does, so old configs that say {@code 30000} keep working. ISO-8601 durations
 * ({@code P365D}, {@code PT12H}) are read too: Ozone's certificate keys are written that way.
 */
public final class Durations {
  private static final Pattern FORMAT = Pattern.compile("^\\s*(\\d+)\\s*([a-zA-Z]*)\\s*$");

  private Durations() {
  }

  public static Duration parse(String text, ChronoUnit bareUnit) {
    if (text.strip().toUpperCase(Locale.ROOT).startsWith("P")) {
      try {
        return Duration.parse(text.strip());
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException("not a duration");
      }
    }
    Matcher m = FORMAT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration");
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    return unit.isEmpty() ? Duration.of(amount, bareUnit) : Duration.of(amount, unit(unit));
  }

  private static ChronoUnit unit(String unit) {
    switch (unit) {
      case "ns": return ChronoUnit.NANOS;
      case "us": return ChronoUnit.MICROS;
      case "ms": return ChronoUnit.MILLIS;
      case "s": case "sec": return ChronoUnit.SECONDS;
      case "m": case "min": return ChronoUnit.MINUTES;
      case "h": return ChronoUnit.HOURS;
      case "d": return ChronoUnit.DAYS;
      default: throw new IllegalArgumentException("unknown unit '" + unit + "'");
    }
  }

  /** The shortest exact form, e.g. {@code 30s}, {@code 1500ms}; suitable for {@link #parse}. */
  public static String format(Duration d) {
    long ms = d.toMillis();
    if (!Duration.ofMillis(ms).equals(d)) {
      return d.toNanos() + "ns";
    }
    if (ms == 0 || ms % 1000 != 0) {
      return ms + "ms";
    }
    long s = ms / 1000;
    if (s % 86400 == 0) {
      return s / 86400 + "d";
    }
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    return s % 60 == 0 ? s / 60 + "m" : s + "s";
  }
}
