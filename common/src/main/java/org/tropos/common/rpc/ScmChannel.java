package org.tropos.common.rpc;

import io.grpc.ManagedChannel;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.common.util.SystemClock;
import org.tropos.proto.scm.ScmResult;

/**
 * A channel to one of SCM's services: failed calls arrive as {@link ScmException}. Given the SCMs of an HA
 * service, it follows the leader: only the leader serves (a follower does not even listen), so a call that finds
 * its SCM unreachable or not ready goes to the next, pausing from {@link #FIRST_PAUSE} (doubling up to
 * {@link #LONGEST_PAUSE}) each time every SCM was tried, for at most {@link #FAILOVER_BUDGET}. A call retried
 * this way may have been carried out by a leader that died before answering: SCM's calls are safe to repeat (a
 * block allocated twice is one unused block; deleted blocks recorded twice are deleted once). An SCM that answers
 * busy (SCM_BUSY, short of memory) is asked again after the wait it names, within the same budget.
 */
public final class ScmChannel implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration FIRST_PAUSE = Duration.ofMillis(100);
  /** Short: an election takes 1-2 s, and a longer pause would be waited out after the next leader serves. */
  private static final Duration LONGEST_PAUSE = Duration.ofMillis(500);
  private static final Duration FAILOVER_BUDGET = Duration.ofSeconds(30);

  private final List<RpcChannel<ScmException>> channels;
  private final Clock clock = SystemClock.INSTANCE;
  /** The SCM calls go to first: the last one that answered. */
  private volatile int current;

  public ScmChannel(HostPort address) {
    this(List.of(address), TransportSecurity.plaintext());
  }

  /**
   * @param addresses the service on each SCM of an HA service (one for a single SCM)
   * @param security how this process reaches SCM (with TLS, only a server with an SCM certificate is trusted)
   */
  public ScmChannel(List<HostPort> addresses, TransportSecurity security) {
    if (addresses.isEmpty()) {
      throw new IllegalArgumentException("no SCM address");
    }
    RpcChannel.ServerTrust scm = new RpcChannel.ServerTrust(security, ServiceRole.SCM);
    this.channels = addresses.stream().map(a -> new RpcChannel<>(a, ScmException::fromRpc, CALL_TIMEOUT,
        Callers.localUser(), scm)).toList();
  }

  /** A stub of the SCM the call in progress goes to. */
  public <S extends AbstractStub<S>> S stub(Function<ManagedChannel, S> newStub) {
    return channels.get(current).stub(newStub);
  }

  public <T> T call(Supplier<T> rpc) throws ScmException {
    long giveUpAt = clock.monotonicMillis() + FAILOVER_BUDGET.toMillis();
    while (true) {
      try {
        return callLeader(rpc);
      } catch (ScmException e) {
        if (e.result() != ScmResult.SCM_BUSY || clock.monotonicMillis() >= giveUpAt) {
          throw e;
        }
        pauseFor(RpcErrors.retryAfterOf(e.getCause(), FIRST_PAUSE), e); // the same SCM, once it has memory again
      }
    }
  }

  private <T> T callLeader(Supplier<T> rpc) throws ScmException {
    if (channels.size() == 1) {
      return channels.get(0).call(rpc);
    }
    long giveUpAt = clock.monotonicMillis() + FAILOVER_BUDGET.toMillis();
    Duration pause = FIRST_PAUSE;
    for (int attempt = 1; ; attempt++) {
      int tried = current;
      try {
        // A follower's port was closed when last tried; it may lead and listen now.
        channels.get(tried).reconnectNow();
        return channels.get(tried).call(rpc);
      } catch (ScmException e) {
        if (e.result() != ScmResult.SCM_NOT_READY || clock.monotonicMillis() >= giveUpAt) {
          throw e;
        }
        if (current == tried) {
          current = (tried + 1) % channels.size();
        }
        if (attempt % channels.size() == 0) {
          pauseFor(pause, e);
          pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        }
      }
    }
  }

  private void pauseFor(Duration pause, ScmException failure) throws ScmException {
    try {
      clock.pause(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure;
    }
  }

  @Override
  public void close() {
    channels.forEach(RpcChannel::close);
  }
}
