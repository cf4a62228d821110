package org.tropos.s3;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.tropos.client.TroposClient;
import org.tropos.common.http.Readiness;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Threads;
import org.tropos.proto.om.OmResult;

/**
 * The gateway's readiness: it can serve while the OM answers. Asked in the background every {@link #PERIOD} (a call
 * to an OM that is down waits out the client's failover), so {@code /ready} answers at once from the last answer.
 * Any answer of the OM's, an error about the volume included, means it serves.
 */
final class OmReachability implements Readiness, AutoCloseable {
  private static final Duration PERIOD = Duration.ofSeconds(5);

  private final TroposClient client;
  private final String volume;
  private final ScheduledExecutorService scheduler = Threads.scheduler("s3g-om-probe");
  private volatile Optional<String> whyNot = Optional.of("the OM has not been asked yet");

  OmReachability(TroposClient client, String volume) {
    this.client = client;
    this.volume = volume;
  }

  void start() {
    Threads.everyPeriod(scheduler, "S3 gateway's OM probe", Duration.ZERO, PERIOD, this::probe);
  }

  private void probe() {
    try {
      client.getVolume(volume);
      whyNot = Optional.empty();
    } catch (OmException e) {
      boolean unserved = e.result() == OmResult.OM_NOT_READY || e.result() == OmResult.NOT_LEADER;
      whyNot = unserved ? Optional.of("the OM does not answer: " + e.getMessage()) : Optional.empty();
    }
  }

  @Override
  public Optional<String> whyNotReady() {
    return whyNot;
  }

  @Override
  public void close() {
    Threads.shutdown(scheduler, Duration.ofSeconds(5));
  }
}
