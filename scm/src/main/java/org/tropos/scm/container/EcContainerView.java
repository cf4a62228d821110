package org.tropos.scm.container;

import java.util.List;
import java.util.UUID;
import org.tropos.common.ec.EcReplication;
import org.tropos.proto.hdds.ContainerState;

/**
 * An erasure-coded container and its reported replicas, as reconstruction sees it.
 *
 * @param id the container
 * @param state its state in SCM
 * @param config its erasure-coding config
 * @param replicas every replica reported, each with the index it holds
 */
public record EcContainerView(long id, ContainerState state, EcReplication config, List<IndexReplica> replicas) {
  public EcContainerView {
    replicas = List.copyOf(replicas);
  }

  /**
   * One replica of an index.
   *
   * @param node the datanode holding it
   * @param index the replica index it reported (1 to data + parity)
   * @param state the replica's state
   * @param usedBytes the bytes its blocks hold
   * @param reportedBad a reader or the scrubber found a corrupt block in it
   */
  public record IndexReplica(UUID node, int index, ContainerState state, long usedBytes, boolean reportedBad) {
  }
}
