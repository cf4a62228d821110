package org.tropos.scm.replication;

import java.util.UUID;

/**
 * A command sent and not yet seen done: a copy of a container to {@code node} (from {@code source} first), or the
 * deletion of its replica on {@code node}.
 *
 * @param deadlineMillis when SCM stops waiting for it (monotonic clock)
 */
public record InFlight(long containerId, UUID node, Kind kind, UUID source, long deadlineMillis) {
  /** What was asked. */
  public enum Kind {
    COPY, DELETE
  }
}
