package org.tropos.scm.pipeline;

import java.util.List;
import java.util.UUID;

/**
 * Where a new pipeline goes.
 *
 * @param members its datanodes, anchor first
 * @param leader the member suggested as leader (highest Ratis priority)
 */
public record Placement(List<UUID> members, UUID leader) {
  public Placement {
    members = List.copyOf(members);
  }
}
