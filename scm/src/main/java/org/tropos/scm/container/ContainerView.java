package org.tropos.scm.container;

import java.util.List;
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
 */
public record ContainerView(long id, ContainerState state, int required, List<UUID> members,
    List<Replica> replicas, boolean written, long highestBcsid) {

  public ContainerView {
    members = List.copyOf(members);
    replicas = List.copyOf(replicas);
    highestBcsid = Math.max(highestBcsid, replicas.stream().mapToLong(Replica::bcsid).max().orElse(0));
  }

  /** A container whose highest bcsid is that of the replicas reported now. */
  public ContainerView(long id, ContainerState state, int required, List<UUID> members, List<Replica> replicas,
      boolean written) {
    this(id, state, required, members, replicas, written, 0);
  }
}
