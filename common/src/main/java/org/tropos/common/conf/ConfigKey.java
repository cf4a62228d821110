package org.tropos.common.conf;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * One configuration key: name, type, default, the range of valid values and a one-line description, in a
 * single declaration. {@code ozone-default.xml} is generated from these declarations (see
 * {@link DefaultsXmlWriter}), so documentation and code cannot drift apart.
 *
 * @param <T> the type of the value
 */
public final class ConfigKey<T> {
  private final String name;
  private final ConfigType<T> type;
  private final String defaultValue;
  private final String description;
  private final Predicate<T> valid;
  private final String validDescription;

  private ConfigKey(String name, ConfigType<T> type, String defaultValue, String description, Predicate<T> valid,
      String validDescription) {
    this.name = Objects.requireNonNull(name);
    this.type = Objects.requireNonNull(type);
    this.defaultValue = Objects.requireNonNull(defaultValue);
    this.description = Objects.requireNonNull(description);
    this.valid = valid;
    this.validDescription = validDescription;
  }

  public static <T> ConfigKey<T> of(String name, ConfigType<T> type, String defaultValue, String description) {
    ConfigKey<T> key = new ConfigKey<>(name, type, defaultValue, description, v -> true, "");
    key.parse(defaultValue);
    return key;
  }

  /** The same key, accepting only values for which {@code check} holds ({@code what} says which, e.g. "> 0"). */
  public ConfigKey<T> requiring(Predicate<T> check, String what) {
    ConfigKey<T> key = new ConfigKey<>(name, type, defaultValue, description, valid.and(check),
        validDescription.isEmpty() ? what : validDescription + " and " + what);
    key.parse(defaultValue);
    return key;
  }

  /** Parses and range-checks a value of this key; the exception names the key and the value. */
  public T parse(String text) {
    T value;
    try {
      value = type.parse(text);
    } catch (RuntimeException e) {
      throw ConfigException.invalidValue(name, text, type.expected());
    }
    if (!valid.test(value)) {
      throw ConfigException.invalidValue(name, text, type.expected() + " " + validDescription);
    }
    return value;
  }

  public String name() {
    return name;
  }

  public String defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  public ConfigType<T> type() {
    return type;
  }

  @Override
  public String toString() {
    return name;
  }
}
