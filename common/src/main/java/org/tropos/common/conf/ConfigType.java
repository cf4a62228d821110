package org.tropos.common.conf;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How a configuration value is written and read back. {@link #parse} throws {@link IllegalArgumentException}
 * on a bad value; the loader turns that into a {@link ConfigException} naming the key.
 *
 * @param <T> the Java type of the value
 */
public final class ConfigType<T> {
  public static final ConfigType<String> STRING = new ConfigType<>("a string", s -> s, Object::toString);
  public static final ConfigType<Integer> INT = new ConfigType<>("an integer", s -> Integer.parseInt(s.trim()),
      Object::toString);
  public static final ConfigType<Long> LONG = new ConfigType<>("an integer", s -> Long.parseLong(s.trim()),
      Object::toString);
  public static final ConfigType<Double> DOUBLE = new ConfigType<>("a number", s -> Double.parseDouble(s.trim()),
      Object::toString);
  public static final ConfigType<Boolean> BOOLEAN = new ConfigType<>("true or false", ConfigType::parseBoolean,
      Object::toString);
  public static final ConfigType<DataSize> SIZE = new ConfigType<>("a size such as 256MB, 5GB or 16KB",
      DataSize::parse, DataSize::toString);
  /** Comma-separated; blanks around entries and empty entries are dropped. */
  public static final ConfigType<List<String>> LIST = new ConfigType<>("a comma-separated list",
      ConfigType::parseList, l -> String.join(",", l));

  private final String expected;
  private final Function<String, T> parser;
  private final Function<T, String> formatter;

  private ConfigType(String expected, Function<String, T> parser, Function<T, String> formatter) {
    this.expected = expected;
    this.parser = parser;
    this.formatter = formatter;
  }

  /** A duration; a bare number is read in {@code bareUnit}. */
  public static ConfigType<Duration> duration(ChronoUnit bareUnit) {
    return new ConfigType<>("a duration such as 30s, 500ms or 5m (a bare number is "
        + bareUnit.toString().toLowerCase(Locale.ROOT) + ")", s -> Durations.parse(s, bareUnit), Durations::format);
  }

  public T parse(String text) {
    return parser.apply(text);
  }

  public String format(T value) {
    return formatter.apply(value);
  }

  /** What a valid value looks like, for error messages. */
  public String expected() {
    return expected;
  }

  private static boolean parseBoolean(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    if (v.equals("true") || v.equals("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new IllegalArgumentException("not a boolean");
  }

  private static List<String> parseList(String s) {
    return Arrays.stream(s.split(",")).map(String::trim).filter(e -> !e.isEmpty()).toList();
  }
}
