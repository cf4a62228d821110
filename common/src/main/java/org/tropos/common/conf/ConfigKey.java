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
  private final boolean suffixed;

  private ConfigKey(String name, ConfigType<T> type, String defaultValue, String description, Predicate<T> valid,
      String validDescription, boolean suffixed) {
    this.name = Objects.requireNonNull(name);
    this.type = Objects.requireNonNull(type);
    this.defaultValue = Objects.requireNonNull(defaultValue);
    this.description = Objects.requireNonNull(description);
    this.valid = valid;
    this.validDescription = validDescription;
    this.suffixed = suffixed;
  }

  public static <T> ConfigKey<T> of(String name, ConfigType<T> type, String defaultValue, String description) {
    ConfigKey<T> key = new ConfigKey<>(name, type, defaultValue, description, v -> true, "", false);
    key.parse(defaultValue);
    return key;
  }

  /** The same key, accepting only values for which {@code check} holds ({@code what} says which, e.g. "> 0"). */
  public ConfigKey<T> requiring(Predicate<T> check, String what) {
    ConfigKey<T> key = new ConfigKey<>(name, type, defaultValue, description, valid.and(check),
        validDescription.isEmpty() ? what : validDescription + " and " + what, suffixed);
    key.parse(defaultValue);
    return key;
  }

  /**
   * The same key, also set per service or node as Ozone's HA keys are: {@code <name>.<serviceId>} or
   * {@code <name>.<serviceId>.<nodeId>} (e.g. {@code ozone.om.address.omservice.om1}), read with
   * {@link Configuration#get(ConfigKey, String)}.
   */
  public ConfigKey<T> withSuffixes() {
    return new ConfigKey<>(name, type, defaultValue, description, valid, validDescription, true);
  }

  public boolean acceptsSuffixes() {
    return suffixed;
  }

  /** Parses and range-checks a value of this key; the exception names the key and the value. */
  public T parse(String text) {
    return parse(text, name);
  }

  /** As {@link #parse(String)}, for the key set under {@code setAs} (a per-service or per-node form of it). */
  public T parse(String text, String setAs) {
    T value;
    try {
      value = type.parse(text);
    } catch (RuntimeException e) {
      throw ConfigException.invalidValue(setAs, text, type.expected());
    }
    if (!valid.test(value)) {
      throw ConfigException.invalidValue(setAs, text, type.expected() + " " + validDescription);
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
