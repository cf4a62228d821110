package org.tropos.scm.container;

import java.util.UUID;
import org.tropos.proto.hdds.ContainerState;

/**
 * One replica of a container, as its datanode last reported it.
 *
 * @param node the datanode holding it
 * @param state the replica's state
 * @param bcsid the Raft log index of the last block committed to it
 * @param usedBytes the bytes its blocks hold
 * @param reportedBad a reader or the datanode's scrubber found a corrupt block in it
 * @param behindOnDeletions it has not carried out deletions SCM no longer tracks (its node was away while every
 *     other replica carried them out), so it may hold deleted blocks for good
 */
public record Replica(UUID node, ContainerState state, long bcsid, long usedBytes, boolean reportedBad,
    boolean behindOnDeletions) {

  /** A replica that carried out every deletion SCM forgot. */
  public Replica(UUID node, ContainerState state, long bcsid, long usedBytes, boolean reportedBad) {
    this(node, state, bcsid, usedBytes, reportedBad, false);
  }
}
