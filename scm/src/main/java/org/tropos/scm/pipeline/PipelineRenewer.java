package org.tropos.scm.pipeline;

import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.Clock;

/**
 * Replaces pipelines so they follow the cluster: a datanode that comes back or joins gets pipelines even when the
 * others are at their limits, and a pipeline placed on one rack (while the other was down) moves to two. One
 * pipeline at a time, gracefully: it is made DORMANT (no new containers), its open containers are closed through
 * its Raft group, and only then (or after {@code drainTimeout}) is it closed; the fill that follows places its
 * replacement.
 *
 * <p>Thread-safety: runs on SCM's pipeline scheduler only.
 */
public final class PipelineRenewer {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineRenewer.class);

  /** What the renewer needs of the containers written through pipelines. */
  public interface Containers {
    /** Whether any container on the pipeline is OPEN or CLOSING. */
    boolean writing(UUID pipeline);

    /** Starts closing every OPEN container on the pipeline. */
    void closeAll(UUID pipeline);
  }

  private final PipelineManager pipelines;
  private final Containers containers;
  private final Clock clock;
  private final Duration drainTimeout;
  private UUID renewing;
  private String reason;
  private long deadline;

  public PipelineRenewer(PipelineManager pipelines, Containers containers, Clock clock, Duration drainTimeout) {
    this.pipelines = pipelines;
    this.containers = containers;
    this.clock = clock;
    this.drainTimeout = drainTimeout;
  }

  public void run() {
    if (renewing != null) {
      finishRenewal();
      return;
    }
    pipelines.renewalCandidate().ifPresent(r -> {
      try {
        pipelines.deactivate(r.pipeline());
      } catch (ScmException e) {
        LOG.debug("Pipeline {} cannot be renewed now: {}", r.pipeline(), e.getMessage());
        return;
      }
      containers.closeAll(r.pipeline());
      renewing = r.pipeline();
      reason = r.reason();
      deadline = clock.monotonicMillis() + drainTimeout.toMillis();
      LOG.info("Pipeline {} is replaced ({}): DORMANT until its containers are closed", renewing, reason);
    });
  }

  private void finishRenewal() {
    boolean drained = !containers.writing(renewing);
    if (!pipelines.exists(renewing)) {
      renewing = null;
    } else if (drained || clock.monotonicMillis() >= deadline) {
      try {
        pipelines.close(renewing, "replaced: " + reason + (drained ? "" : " (its containers did not close within "
            + drainTimeout + ")"));
      } catch (ScmException e) {
        LOG.debug("Pipeline {} was already gone: {}", renewing, e.getMessage());
      }
      renewing = null;
      pipelines.fillToLimits();
    }
  }
}
