package org.tropos.scm.container;

import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.tropos.proto.hdds.ContainerState;

/**
 * A container and its reported replicas, as replication sees it.
 *
 * @param id the container
 * @param state its state in SCM
 * @param required how many healthy replicas it should have (its pipeline's size)
 * @param members the datanodes of the pipeline it was written through
 * @param replicas every replica reported
 * @param written whether a replica of it was ever reported (else no byte of it reached a datanode)
 * @param highestBcsid the highest bcsid any replica of it ever reported (those reported now included)
 * @param membersOutOfPipeline the members whose last heartbeat no longer listed its pipeline's group: what they
 *     report of it is final (a member still in the group may yet apply a write it has not reported)
 */
public record ContainerView(long id, ContainerState state, int required, List<UUID> members,
    List<Replica> replicas, boolean written, long highestBcsid, Set<UUID> membersOutOfPipeline) {

  public ContainerView {
    members = List.copyOf(members);
    replicas = List.copyOf(replicas);
    highestBcsid = Math.max(highestBcsid, replicas.stream().mapToLong(Replica::bcsid).max().orElse(0));
    membersOutOfPipeline = Set.copyOf(membersOutOfPipeline);
  }

  /** A container whose members have all left its pipeline. */
  public ContainerView(long id, ContainerState state, int required, List<UUID> members, List<Replica> replicas,
      boolean written, long highestBcsid) {
    this(id, state, required, members, replicas, written, highestBcsid, Set.copyOf(members));
  }

  /** A container whose highest bcsid is that of the replicas reported now, and whose members left its pipeline. */
  public ContainerView(long id, ContainerState state, int required, List<UUID> members, List<Replica> replicas,
      boolean written) {
    this(id, state, required, members, replicas, written, 0);
  }
}
