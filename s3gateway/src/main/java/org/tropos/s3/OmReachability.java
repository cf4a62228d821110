package org.tropos.s3;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.tropos.client.TroposClient;
import org.tropos.common.http.Readiness;
import org.tropos.common.rpc.OmException;
import org.tropos.common.util.Threads;
import org.tropos.proto.om.GetOmRoleResponse;

/**
 * The gateway's readiness: it can serve while an OM answers that leads or knows a leader (its role; a probe that
 * reads nothing, left out of the audit log). Asked in the background every {@link #PERIOD} (a call to an OM that
 * is down waits out the client's failover), so {@code /ready} answers at once from the last answer.
 */
final class OmReachability implements Readiness, AutoCloseable {
  private static final Duration PERIOD = Duration.ofSeconds(5);

  private final TroposClient client;
  private final ScheduledExecutorService scheduler = Threads.scheduler("s3g-om-probe");
  private volatile Optional<String> whyNot = Optional.of("the OM has not been asked yet");

  OmReachability(TroposClient client) {
    this.client = client;
  }

  void start() {
    Threads.everyPeriod(scheduler, "S3 gateway's OM probe", Duration.ZERO, PERIOD, this::probe);
  }

  private void probe() {
    try {
      GetOmRoleResponse role = client.omRole();
      boolean led = role.getRole().equals("LEADER") || role.getRole().equals("SINGLE")
          || !role.getLeaderId().isEmpty();
      whyNot = led ? Optional.empty() : Optional.of("no OM leads: OM " + role.getNodeId() + " is "
          + role.getRole() + " and knows no leader");
    } catch (OmException e) {
      whyNot = Optional.of("the OM does not answer: " + e.getMessage());
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
