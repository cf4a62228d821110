package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.CommonKeys;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.util.SystemClock;

class UserGroupsTest {
  @Test
  void staticOverridesNameUsersGroups() {
    UserGroups groups = UserGroups.staticOnly("bob=analysts,ops;carol=;");
    assertEquals(Set.of("analysts", "ops"), groups.of("bob"));
    assertEquals(Set.of(), groups.of("carol"));
    assertEquals(Set.of(), groups.of("dave"), "no mapping but the overrides: no groups");
    assertEquals(Set.of(), groups.of(""), "nobody is in no group");
    assertThrows(ConfigException.class, () -> UserGroups.staticOnly("=ops"));
  }

  @Test
  void theOperatingSystemNamesTheGroupsOfAUserItKnowsAndTheOverridesComeFirst() {
    UserGroups groups = new UserGroups("carol=ops", CommonKeys.GroupSource.OPERATING_SYSTEM, Duration.ofMinutes(5),
        SystemClock.INSTANCE);
    String me = System.getProperty("user.name");
    assertTrue(!groups.of(me).isEmpty(), "a user the system knows has a primary group at least");
    assertEquals(Set.of("ops"), groups.of("carol"));
    assertEquals(Set.of(), groups.of("no-such-user-" + System.nanoTime()));
  }
}
