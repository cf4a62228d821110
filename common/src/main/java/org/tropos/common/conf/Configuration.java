package org.tropos.common.conf;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable, validated set of configuration values: every declared key that is set has been parsed and
 * range-checked at construction, so {@link #get} never fails. Keys are current names (deprecated aliases were
 * mapped by {@link ConfigLoader}). Components do not keep this object: they build their own typed config
 * record from it (e.g. {@code ScmConfig.from(conf)}).
 */
public final class Configuration {
  private static final Configuration DEFAULTS = new Configuration(Map.of());

  private final Map<String, String> explicit;
  private final Map<String, Object> parsed = new HashMap<>();

  /** Validates every declared key in {@code values}; throws {@link ConfigException} naming the first bad one. */
  public Configuration(Map<String, String> values) {
    this.explicit = Collections.unmodifiableMap(new TreeMap<>(values));
    for (ConfigKey<?> key : KnownKeys.all()) {
      String text = explicit.get(key.name());
      parsed.put(key.name(), key.parse(text != null ? text : key.defaultValue()));
    }
    explicit.forEach((name, text) -> {
      ConfigKey<?> key = KnownKeys.get(name);
      if (key != null && !key.name().equals(name)) {
        parsed.put(name, key.parse(text, name));
      }
    });
  }

  /**
   * The value of {@code key} set for {@code suffix} ({@code <key>.<suffix>}, e.g. a service id, or
   * {@code serviceId.nodeId}), else its plain value.
   */
  @SuppressWarnings("unchecked")
  public <T> T get(ConfigKey<T> key, String suffix) {
    if (!key.acceptsSuffixes()) {
      throw new IllegalArgumentException(key.name() + " is not set per service or node");
    }
    Object value = parsed.get(key.name() + "." + suffix);
    return value != null ? (T) value : get(key);
  }

  public static Configuration defaults() {
    return DEFAULTS;
  }

  @SuppressWarnings("unchecked")
  public <T> T get(ConfigKey<T> key) {
    Object value = parsed.get(key.name());
    if (value == null) {
      throw new IllegalStateException("key not declared in KnownKeys: " + key.name());
    }
    return (T) value;
  }

  /** True if the key was set explicitly (even to its default value). */
  public boolean isSet(ConfigKey<?> key) {
    return explicit.containsKey(key.name());
  }

  /** A raw value by name, declared or not (for pass-through prefixes such as Ratis keys); null if unset. */
  public String raw(String name) {
    return explicit.get(name);
  }

  /** Values set explicitly, sorted by name. */
  public Map<String, String> explicitValues() {
    return explicit;
  }

  /** A copy with {@code key} set to {@code value}, validated. */
  public Configuration with(String key, String value) {
    return with(Map.of(key, value));
  }

  /** A copy with {@code overrides} applied, validated. */
  public Configuration with(Map<String, String> overrides) {
    Map<String, String> merged = new HashMap<>(explicit);
    merged.putAll(overrides);
    return new Configuration(merged);
  }

  public <T> Configuration with(ConfigKey<T> key, T value) {
    return with(key.name(), key.type().format(value));
  }
}
