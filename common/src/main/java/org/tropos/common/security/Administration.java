package org.tropos.common.security;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.Configuration;
import org.tropos.common.util.Clock;

/**
 * Who administers a daemon (the OM or SCM), as its own configuration says: the user running it, the users of
 * {@code ozone.administrators} ("*": everyone) and the users in a group of {@code ozone.administrators.groups}; and
 * who may read everything an administrator reads without changing anything ({@code ozone.readonly.administrators},
 * {@code ozone.readonly.administrators.groups}). A client's configuration has no say. Nobody ("") never is one.
 *
 * <p>Thread-safe.
 */
public final class Administration {
  /** The keys this is read from, groups included. */
  public record Settings(List<String> users, List<String> groups, List<String> readOnlyUsers,
      List<String> readOnlyGroups, CommonKeys.GroupSource groupSource, String groupOverrides,
      Duration groupsCacheFor) {
    public Settings {
      users = List.copyOf(users);
      groups = List.copyOf(groups);
      readOnlyUsers = List.copyOf(readOnlyUsers);
      readOnlyGroups = List.copyOf(readOnlyGroups);
    }

    public static Settings from(Configuration conf) {
      return new Settings(conf.get(CommonKeys.ADMINISTRATORS), conf.get(CommonKeys.ADMINISTRATOR_GROUPS),
          conf.get(CommonKeys.READONLY_ADMINISTRATORS), conf.get(CommonKeys.READONLY_ADMINISTRATOR_GROUPS),
          CommonKeys.GroupSource.of(conf.get(CommonKeys.GROUP_MAPPING)), conf.get(CommonKeys.GROUP_STATIC_OVERRIDES),
          Duration.ofSeconds(conf.get(CommonKeys.GROUPS_CACHE_SECONDS)));
    }

    /** Only {@code users} administer, besides the daemon's user; nobody is in a group. */
    public static Settings users(List<String> users) {
      return new Settings(users, List.of(), List.of(), List.of(), CommonKeys.GroupSource.NONE, "", Duration.ZERO);
    }
  }

  private final Set<String> users;
  private final Set<String> groups;
  private final Set<String> readOnlyUsers;
  private final Set<String> readOnlyGroups;
  private final UserGroups userGroups;

  /** As {@code settings} says, with {@code daemonUser} (who runs the daemon) an administrator. */
  public Administration(Settings settings, String daemonUser, Clock clock) {
    this.users = Stream.concat(Stream.of(daemonUser), settings.users().stream())
        .collect(Collectors.toUnmodifiableSet());
    this.groups = Set.copyOf(settings.groups());
    this.readOnlyUsers = Set.copyOf(settings.readOnlyUsers());
    this.readOnlyGroups = Set.copyOf(settings.readOnlyGroups());
    this.userGroups = new UserGroups(settings.groupOverrides(), settings.groupSource(), settings.groupsCacheFor(),
        clock);
  }

  /** The groups of {@code user}. */
  public Set<String> groupsOf(String user) {
    return userGroups.of(user);
  }

  public boolean administers(String user) {
    return named(user, users, groups);
  }

  /** Whether {@code user} may read what administrators read (an administrator or a read-only one). */
  public boolean reads(String user) {
    return administers(user) || named(user, readOnlyUsers, readOnlyGroups);
  }

  private boolean named(String user, Set<String> names, Set<String> groupNames) {
    if (user.isEmpty()) {
      return false;
    }
    if (names.contains("*") || names.contains(user)) {
      return true;
    }
    return !groupNames.isEmpty() && groupsOf(user).stream().anyMatch(groupNames::contains);
  }
}
