package org.tropos.scm.replication;

import java.util.List;
import java.util.UUID;

/** What the replication planner decided for one container. */
public sealed interface ReplicationAction {
  long containerId();

  /** Copy the container to {@code target} from the first of {@code sources} that serves it. */
  record Copy(long containerId, UUID target, List<UUID> sources) implements ReplicationAction {
    public Copy {
      sources = List.copyOf(sources);
    }
  }

  /** Delete the replica on {@code node}: an extra, or an unhealthy one now that enough healthy ones exist. */
  record Delete(long containerId, UUID node) implements ReplicationAction {
  }

  /** The replica on {@code node} is still open but its pipeline is gone: close it locally as QUASI_CLOSED. */
  record QuasiClose(long containerId, UUID node) implements ReplicationAction {
  }

  /** The QUASI_CLOSED replica on {@code node} holds every committed write: close it as CLOSED. */
  record ForceClose(long containerId, UUID node) implements ReplicationAction {
  }

  /** A QUASI_CLOSED container has a CLOSED replica holding every committed write: it is CLOSED. */
  record MarkClosed(long containerId) implements ReplicationAction {
  }

  /** A QUASI_CLOSED container was never written (no replica ever reported, every member reporting): forget it. */
  record ForgetEmpty(long containerId) implements ReplicationAction {
  }
}
