package org.tropos.common.conf;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of bytes. Parsed as Hadoop and Ozone do: units are binary ({@code 1KB = 1024B}) and case does
 * not matter ({@code 256MB}, {@code 5gb}, {@code 16k}); a bare number is bytes.
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
  private static final Pattern FORMAT = Pattern.compile("^\\s*(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)\\s*$");
  private static final String[] UNITS = {"B", "KB", "MB", "GB", "TB", "PB"};

  public DataSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("negative size: " + bytes);
    }
  }

  public static DataSize ofBytes(long bytes) {
    return new DataSize(bytes);
  }

  /** Parses {@code 256MB}; throws {@link IllegalArgumentException} naming what is wrong. */
  public static DataSize parse(String text) {
    Matcher m = FORMAT.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size");
    }
    int shift = unitShift(m.group(2).toUpperCase(Locale.ROOT));
    double value = Double.parseDouble(m.group(1)) * Math.pow(2, shift);
    if (value > Long.MAX_VALUE) {
      throw new IllegalArgumentException("too large");
    }
    return new DataSize((long) value);
  }

  private static int unitShift(String unit) {
    switch (unit) {
      case "": case "B": return 0;
      case "K": case "KB": return 10;
      case "M": case "MB": return 20;
      case "G": case "GB": return 30;
      case "T": case "TB": return 40;
      case "P": case "PB": return 50;
      default: throw new IllegalArgumentException("unknown unit '" + unit + "'");
    }
  }

  @Override
  public int compareTo(DataSize other) {
    return Long.compare(bytes, other.bytes);
  }

  /** The largest unit that keeps the value whole, e.g. {@code 256MB}; suitable for {@link #parse}. */
  @Override
  public String toString() {
    int unit = 0;
    long value = bytes;
    while (unit < UNITS.length - 1 && value != 0 && value % 1024 == 0) {
      value /= 1024;
      unit++;
    }
    return value + UNITS[unit];
  }

  /** For humans: one decimal in the largest unit below the value, e.g. {@code 1.5GB}. */
  public String toHumanString() {
    double value = bytes;
    int unit = 0;
    while (unit < UNITS.length - 1 && value >= 1024) {
      value /= 1024;
      unit++;
    }
    return unit == 0 ? bytes + "B" : String.format(Locale.ROOT, "%.1f%s", value, UNITS[unit]);
  }
}
