package org.tropos.scm.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.hdds.ReplicationFactor;

/**
 * Fills the cluster with pipelines: creates them (RATIS/THREE, then RATIS/ONE where enabled) until a limit or the
 * cluster stops it. SCM runs a fill periodically; the pipeline manager asks for one when nodes leave or come back,
 * and once registrations settle: two heartbeat intervals after the last one. Filling at the first registrations
 * would pair the first three nodes with each other up to their limits and leave the later ones only each other, so
 * losing one node would strand its partners.
 *
 * <p>Thread-safe.
 */
final class PipelineFiller {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineFiller.class);

  private final PipelineManager pipelines;
  private final List<ReplicationFactor> factors;
  private final Duration settle;
  private final ScheduledExecutorService background;
  /** What stopped the last fill of each factor, so an unchanged outcome is not logged again. */
  private final Map<ReplicationFactor, String> lastOutcome = new ConcurrentHashMap<>();
  private ScheduledFuture<?> pending;

  /**
   * @param factors the factors filled, in order
   * @param settle how long a fill waits after the last registration or return to HEALTHY, for the others
   * @param background runs the fills asked for (SCM's pipeline scheduler)
   */
  PipelineFiller(PipelineManager pipelines, List<ReplicationFactor> factors, Duration settle,
      ScheduledExecutorService background) {
    this.pipelines = pipelines;
    this.factors = factors;
    this.settle = settle;
    this.background = background;
  }

  /** Fills now, on the caller's thread; returns how many pipelines were created. */
  int fill() {
    int created = 0;
    for (ReplicationFactor factor : factors) {
      created += fill(factor);
    }
    return created;
  }

  private int fill(ReplicationFactor factor) {
    int created = 0;
    String outcome;
    while (true) {
      try {
        pipelines.create(factor);
        created++;
      } catch (ScmException e) {
        outcome = e.result() + ": " + e.getMessage();
        break;
      }
    }
    if (created > 0 || !outcome.equals(lastOutcome.get(factor))) {
      LOG.info("Pipeline fill created {}; {} RATIS/{} pipelines now; stopped by {}", created,
          pipelines.countLive(factor), factor, outcome);
    }
    lastOutcome.put(factor, outcome);
    return created;
  }

  /** Fills soon, in the background. */
  void fillSoon() {
    background.execute(this::fill);
  }

  /** Fills once no registration or return has come for {@code settle}: each one puts the fill off again. */
  synchronized void fillOnceSettled() {
    if (pending != null) {
      pending.cancel(false);
    }
    Runnable fill = this::fill;
    pending = background.schedule(fill, settle.toMillis(), TimeUnit.MILLISECONDS);
  }
}
