package org.tropos.om.acl;

import java.util.Set;

/**
 * Who asks: the user the OM proved ({@code ""}: nobody, an anonymous caller), its groups, whether it administers
 * the OM ({@code ozone.administrators}) and whether it reads what administrators read
 * ({@code ozone.readonly.administrators}).
 */
public record Requester(String user, Set<String> groups, boolean administrator, boolean readOnlyAdministrator) {
  public Requester {
    groups = Set.copyOf(groups);
  }

  public boolean anonymous() {
    return user.isEmpty();
  }
}
