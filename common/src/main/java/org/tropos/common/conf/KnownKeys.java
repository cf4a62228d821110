package org.tropos.common.conf;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every key Tropos reads, collected from the declaration classes, plus the deprecated names still accepted.
 * Declarations live in {@code common} (one class per component) rather than in each module because the
 * unknown-key check and the generated {@code ozone-default.xml} need the whole set (see docs/design.md).
 */
public final class KnownKeys {
  private static final Map<String, ConfigKey<?>> KEYS = collect(CommonKeys.class, ScmKeys.class,
      DatanodeKeys.class, ClientKeys.class, OmKeys.class, S3GatewayKeys.class, SecurityKeys.class);

  /** Old name -> current name. Ozone renamed these; operators still carry the old names in their configs. */
  private static final Map<String, String> DEPRECATED = Map.of(
      "ozone.datanode.pipeline.limit", ScmKeys.DATANODE_PIPELINE_LIMIT.name(),
      "dfs.container.ratis.datanode.storage.dir", DatanodeKeys.RAFT_LOG_DIRS.name());

  private KnownKeys() {
  }

  public static Collection<ConfigKey<?>> all() {
    return Collections.unmodifiableCollection(KEYS.values());
  }

  /** The key {@code name} is, or (for a key set per service or node) the key it is a suffixed form of; else null. */
  public static ConfigKey<?> get(String name) {
    ConfigKey<?> exact = KEYS.get(name);
    if (exact != null) {
      return exact;
    }
    for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
      ConfigKey<?> base = KEYS.get(name.substring(0, dot));
      if (base != null && base.acceptsSuffixes()) {
        return base;
      }
    }
    return null;
  }

  /** The current name for a deprecated one, or null. */
  public static String replacementOf(String deprecatedName) {
    return DEPRECATED.get(deprecatedName);
  }

  /** Deprecated names of {@code key}, for documentation. */
  public static String deprecatedNamesOf(ConfigKey<?> key) {
    return String.join(", ", DEPRECATED.entrySet().stream().filter(e -> e.getValue().equals(key.name()))
        .map(Map.Entry::getKey).sorted().toList());
  }

  private static Map<String, ConfigKey<?>> collect(Class<?>... holders) {
    Map<String, ConfigKey<?>> keys = new LinkedHashMap<>();
    for (Class<?> holder : holders) {
      for (Field f : holder.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) && f.getType() == ConfigKey.class) {
          ConfigKey<?> key = read(f);
          if (keys.put(key.name(), key) != null) {
            throw new IllegalStateException("configuration key declared twice: " + key.name());
          }
        }
      }
    }
    return Collections.unmodifiableMap(keys);
  }

  private static ConfigKey<?> read(Field f) {
    try {
      return (ConfigKey<?>) f.get(null);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read key declaration " + f, e);
    }
  }
}
