package org.tropos.common.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;

/**
 * A user's groups, as Hadoop's group mapping finds them: the static overrides first
 * ({@code hadoop.user.group.static.mapping.overrides}), else the operating system's groups of the user ({@code id -Gn},
 * as Hadoop's shell-based mapping reads them), kept for {@code hadoop.security.groups.cache.secs}. A user the system
 * does not know has no groups.
 *
 * <p>Thread-safe.
 */
public final class UserGroups {
  private static final Logger LOG = LoggerFactory.getLogger(UserGroups.class);
  private static final long LOOKUP_TIMEOUT_SECONDS = 5;

  private record Cached(Set<String> groups, long expiresNanos) {
  }

  private final Map<String, Set<String>> overrides;
  private final CommonKeys.GroupSource source;
  private final Duration cacheFor;
  private final Clock clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public UserGroups(String overrides, CommonKeys.GroupSource source, Duration cacheFor, Clock clock) {
    this.overrides = parse(overrides);
    this.source = source;
    this.cacheFor = cacheFor;
    this.clock = clock;
  }

  /** Groups from the static overrides alone. */
  public static UserGroups staticOnly(String overrides) {
    return new UserGroups(overrides, CommonKeys.GroupSource.NONE, Duration.ZERO, SystemClock.INSTANCE);
  }

  public Set<String> of(String user) {
    if (user.isEmpty()) {
      return Set.of();
    }
    Set<String> fixed = overrides.get(user);
    if (fixed != null || source == CommonKeys.GroupSource.NONE) {
      return fixed == null ? Set.of() : fixed;
    }
    long now = clock.monotonicNanos();
    Cached cached = cache.get(user);
    if (cached == null || now - cached.expiresNanos() >= 0) {
      cached = new Cached(lookUp(user), now + cacheFor.toNanos());
      cache.put(user, cached);
    }
    return cached.groups();
  }

  /** The system's groups of {@code user}: none when it does not know the user or cannot say in time. */
  private static Set<String> lookUp(String user) {
    try {
      Process id = new ProcessBuilder("id", "-Gn", "--", user).start();
      id.getOutputStream().close();
      // A line of group names fits the pipe: wait first, so a lookup that hangs is given up on time.
      if (!id.waitFor(LOOKUP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        id.destroyForcibly();
        return Set.of();
      }
      try (InputStream out = id.getInputStream()) {
        String groups = new String(out.readAllBytes(), StandardCharsets.UTF_8).strip();
        return id.exitValue() != 0 || groups.isEmpty() ? Set.of() : Set.of(groups.split("\\s+"));
      }
    } catch (IOException e) {
      LOG.warn("Groups of user {}: cannot run id: {}", user, e.toString());
      return Set.of();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Set.of();
    }
  }

  /** "user1=group1,group2;user2=;" as a map; fails with the key's name on a malformed entry. */
  private static Map<String, Set<String>> parse(String overrides) {
    Map<String, Set<String>> parsed = new HashMap<>();
    for (String entry : overrides.split(";")) {
      if (entry.isBlank()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0 || entry.substring(0, eq).isBlank()) {
        throw new ConfigException(CommonKeys.GROUP_STATIC_OVERRIDES.name() + ": '" + entry.strip()
            + "' is not user=group1,group2");
      }
      parsed.put(entry.substring(0, eq).strip(), Arrays.stream(entry.substring(eq + 1).split(","))
          .map(String::strip).filter(g -> !g.isEmpty()).collect(Collectors.toUnmodifiableSet()));
    }
    return Map.copyOf(parsed);
  }
}
