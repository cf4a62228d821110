package org.tropos.scm.replication;

/**
 * What replication found of one container, the worst first: a container in several classes is counted in the
 * first that applies.
 */
public enum ContainerHealth {
  /** No healthy replica on a live datanode. */
  MISSING,
  /** Fewer healthy replicas than it needs (copies under way or waiting for room). */
  UNDER_REPLICATED,
  /** Its pipeline is gone and its replicas are being closed by their highest committed write. */
  QUASI_CLOSED,
  /** Enough healthy replicas, but all on one rack while others are available. */
  MIS_REPLICATED,
  /** Enough healthy replicas, and unhealthy, corrupt or outdated ones to delete. */
  UNHEALTHY_REPLICAS,
  /** More healthy replicas than it needs. */
  OVER_REPLICATED,
  /** As many healthy replicas as it needs, on enough racks. */
  HEALTHY,
  /** Still written through its pipeline (OPEN or CLOSING): Raft keeps its replicas. */
  OPEN
}
