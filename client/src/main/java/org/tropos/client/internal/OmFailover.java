package org.tropos.client.internal;

import io.grpc.ManagedChannel;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.CallIds;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.RpcChannel;
import org.tropos.common.rpc.RpcErrors;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Clock;
import org.tropos.proto.om.OmResult;

/**
 * The OMs a client calls: one, or the OMs of an HA service in turn. A call an OM answers NOT_LEADER goes next to
 * the leader it names (else to the next OM), even one the client was not configured with (so a client that knows
 * one OM of a service still finds its leader); one that cannot reach its OM goes to the next. Once every OM has
 * been tried the client pauses, doubling from {@link #FIRST_PAUSE} up to {@link #LONGEST_PAUSE}, and after
 * {@code budget} gives up with the last failure. An OM that answers busy (OM_BUSY, short of memory) is asked again
 * after the wait it names, within the same budget. Any other failure is the caller's at once, and so is a single
 * OM's "not ready": with one OM and no leader named there is nowhere else to go. Every call carries an id, the
 * same on each attempt, for the OMs' retry cache.
 *
 * <p>Thread-safe: calls from many threads share the OM currently believed to lead.
 */
final class OmFailover implements AutoCloseable {
  static final Duration FIRST_PAUSE = Duration.ofMillis(100);
  /** Short: an election takes 1-2 s, and a longer pause would be waited out after the next leader serves. */
  static final Duration LONGEST_PAUSE = Duration.ofMillis(500);
  /** For this long after an OM could not be reached, a NOT_LEADER naming it is not followed. */
  static final Duration STALE_HINT_WINDOW = Duration.ofSeconds(5);

  /** Leaders learned from NOT_LEADER answers are added, up to this many OMs in all. */
  private static final int MAX_OMS = 9;

  private final List<RpcChannel<OmException>> channels;
  private final Duration callTimeout;
  private final String user;
  /** How the OMs are reached. */
  private final RpcChannel.ServerTrust om;
  private final Clock clock;
  private final Duration budget;
  /** With several OMs every call carries an id, the same on each attempt (the OMs' retry cache). */
  private final String clientId = UUID.randomUUID().toString();
  private final AtomicLong calls = new AtomicLong();
  /** The OM a thread's call is trying now, and the call's id. */
  private final ThreadLocal<Attempt> attempt = new ThreadLocal<>();
  /** When each OM (by address) last could not be reached: a leader named by an OM that has not noticed yet. */
  private final Map<HostPort, Long> unreachableAt = new ConcurrentHashMap<>();
  private volatile int current;
  /** Whether read calls go to the OMs in turn (the OMs serve reads as followers too). */
  private final boolean followerReads;
  private final AtomicLong reads = new AtomicLong();

  private record Attempt(RpcChannel<OmException> channel, String callId) {
  }

  OmFailover(List<HostPort> addresses, Duration callTimeout, String user, Clock clock, Duration budget) {
    this(addresses, callTimeout, user, clock, budget, false, TransportSecurity.plaintext());
  }

  /**
   * @param followerReads whether read calls ({@link #read}) go to the OMs in turn rather than to the leader
   * @param transport how this process reaches the OMs (with TLS, only servers with an OM certificate are trusted)
   */
  OmFailover(List<HostPort> addresses, Duration callTimeout, String user, Clock clock, Duration budget,
      boolean followerReads, TransportSecurity transport) {
    this.om = new RpcChannel.ServerTrust(transport, ServiceRole.OM);
    this.channels = new CopyOnWriteArrayList<>(addresses.stream().map(a -> new RpcChannel<>(a, OmException::fromRpc,
        callTimeout, user, om)).toList());
    this.callTimeout = callTimeout;
    this.user = user;
    this.clock = clock;
    this.budget = budget;
    this.followerReads = followerReads;
  }

  /** A stub of the OM a call made inside {@link #call} is trying, carrying the call's id. */
  <S extends AbstractStub<S>> S stub(Function<ManagedChannel, S> newStub) {
    Attempt trying = attempt.get();
    return trying == null ? channels.get(current).stub(newStub)
        : trying.channel().stub(newStub).withInterceptors(CallIds.sending(trying.callId()));
  }

  /** Runs {@code rpc} (which takes its stub from {@link #stub}), on the next OM while the OMs fail over. */
  <T> T call(Supplier<T> rpc) throws OmException {
    try {
      return callOnLeader(rpc, newCallId());
    } finally {
      attempt.remove();
    }
  }

  /**
   * Runs a call that only reads. With follower reads it goes to the OMs in turn, skipping one found unreachable
   * lately: a follower serving reads answers it once it has applied what the leader had committed. An OM that does
   * not serve it (NOT_LEADER, not ready, unreachable) hands it to {@link #call}, which finds the leader.
   */
  <T> T read(Supplier<T> rpc) throws OmException {
    int tried = Math.floorMod(reads.getAndIncrement(), channels.size());
    if (!followerReads || channels.size() == 1 || recentlyUnreachable(channels.get(tried).address().toString())) {
      return call(rpc);
    }
    attempt.set(new Attempt(channels.get(tried), newCallId()));
    try {
      return channels.get(tried).call(rpc);
    } catch (OmException e) {
      if (e.result() != OmResult.NOT_LEADER && e.result() != OmResult.OM_NOT_READY) {
        throw e;
      }
      if (e.result() == OmResult.OM_NOT_READY) {
        unreachableAt.put(channels.get(tried).address(), clock.monotonicMillis());
      }
    } finally {
      attempt.remove();
    }
    return call(rpc);
  }

  /** An id for a new call: this client, when, and a sequence number. */
  private String newCallId() {
    return clientId + ":" + clock.wallTime().toEpochMilli() + ":" + calls.incrementAndGet();
  }

  private <T> T callOnLeader(Supplier<T> rpc, String callId) throws OmException {
    long giveUpAt = clock.monotonicMillis() + budget.toMillis();
    Duration pause = FIRST_PAUSE;
    int triedSincePause = 0;
    while (true) {
      int tried = current;
      attempt.set(new Attempt(channels.get(tried), callId));
      try {
        return channels.get(tried).call(rpc);
      } catch (OmException e) {
        if (e.result() == OmResult.OM_BUSY && clock.monotonicMillis() < giveUpAt) {
          pauseFor(RpcErrors.retryAfterOf(e.getCause(), FIRST_PAUSE)); // the same OM, once it has memory again
          continue;
        }
        boolean elsewhere = e.result() == OmResult.NOT_LEADER || e.result() == OmResult.OM_NOT_READY;
        if (!elsewhere || channels.size() == 1 && e.leaderHint().isEmpty() && e.result() == OmResult.OM_NOT_READY) {
          throw e;
        }
        if (clock.monotonicMillis() >= giveUpAt) {
          throw new OmException(e.result(), "no OM of the service served the call within " + budget.toSeconds()
              + " s; the last said: " + e.getMessage());
        }
        if (e.result() == OmResult.OM_NOT_READY) {
          unreachableAt.put(channels.get(tried).address(), clock.monotonicMillis());
        }
        moveOn(tried, e.leaderHint());
        if (++triedSincePause >= channels.size()) {
          triedSincePause = 0;
          pauseFor(pause);
          pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        }
      }
    }
  }

  /** After a failure on OM {@code failed}: the leader it named, else the next OM (unless another call moved on). */
  private synchronized void moveOn(int failed, String hint) {
    if (current != failed) {
      return;
    }
    // Right after a leader dies its followers still name it: a hint at an OM just found unreachable is ignored.
    String leaderHint = hint.isEmpty() || recentlyUnreachable(hint) ? "" : hint;
    for (int i = 0; i < channels.size(); i++) {
      if (i != failed && channels.get(i).address().toString().equals(leaderHint)) {
        current = i;
        return;
      }
    }
    if (!leaderHint.isEmpty() && channels.size() < MAX_OMS) {
      channels.add(new RpcChannel<>(HostPort.parse(leaderHint, 0, "the leader's address"), OmException::fromRpc,
          callTimeout, user, om));
      current = channels.size() - 1;
      return;
    }
    current = (failed + 1) % channels.size();
  }

  private boolean recentlyUnreachable(String address) {
    for (Map.Entry<HostPort, Long> e : unreachableAt.entrySet()) {
      if (e.getKey().toString().equals(address)
          && clock.monotonicMillis() - e.getValue() < STALE_HINT_WINDOW.toMillis()) {
        return true;
      }
    }
    return false;
  }

  private void pauseFor(Duration pause) throws OmException {
    try {
      clock.pause(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OmException(OmResult.OM_NOT_READY, "interrupted while the OMs fail over");
    }
  }

  @Override
  public void close() {
    channels.forEach(RpcChannel::close);
  }
}
