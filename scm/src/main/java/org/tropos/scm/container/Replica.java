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
 */
public record Replica(UUID node, ContainerState state, long bcsid, long usedBytes, boolean reportedBad) {
}
