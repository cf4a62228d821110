package org.tropos.datanode.scm;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.RpcChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.HeartbeatResponse;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmDatanodeServiceGrpc;
import org.tropos.proto.scm.ScmResult;

/**
 * The datanode's link to SCM: registers, then heartbeats every interval with the node report, and acts on the
 * commands in the responses. When SCM cannot be reached it keeps trying at the same interval, logging once
 * when the link is lost and once when it is back. Given the SCMs of an HA service it follows the leader: only the
 * leader serves, so a beat that finds its SCM unreachable or not ready tries the next ones at once, and sticks to
 * the one that answers; commands therefore come from the leader only. A new leader asks the datanode to register
 * again (it starts from the database, not from heartbeats it never saw). So that it hears from every datanode
 * within moments of taking over rather than a heartbeat interval (30 s by default) later, a beat goes at once
 * when a connection to an SCM drops (its process stopped), and a beat that found no SCM serving is tried again
 * every {@link #RETRY_PAUSE} until one does.
 *
 * <p>Thread-safety: every call runs on its own single scheduler thread, which owns {@code registered}.
 */
public final class ScmHeartbeat implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScmHeartbeat.class);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
  /** With an HA service, how soon a beat that found no SCM serving is tried again (an election takes 1-2 s). */
  static final Duration RETRY_PAUSE = Duration.ofMillis(500);

  /** Told of each successful registration, before any heartbeat follows it. */
  @FunctionalInterface
  public interface RegistrationListener {
    void registered(RegisterResponse response) throws ScmException;
  }

  private final String nodeName;
  private final List<HostPort> scms;
  private final Duration interval;
  private final Supplier<DatanodeDetails> details;
  private final HeartbeatReports reports;
  private final RegistrationListener listener;
  private final Consumer<ScmCommand> commands;
  private final LifeCycle lifeCycle;
  private List<ManagedChannel> channels;
  /** The SCM beats go to: the last one that answered. */
  private int current;
  private ScheduledExecutorService scheduler;
  private boolean registered;
  private DatanodeDetails registeredAs;
  private String lastFailure = "";
  private final AtomicBoolean extraBeatDue = new AtomicBoolean();

  /**
   * @param reports what each heartbeat reports
   * @param commands receives SCM's commands other than re-register; must return at once
   */
  public ScmHeartbeat(String nodeName, List<HostPort> scms, Duration interval, Supplier<DatanodeDetails> details,
      HeartbeatReports reports, RegistrationListener listener, Consumer<ScmCommand> commands) {
    this.nodeName = nodeName;
    this.scms = List.copyOf(scms);
    this.interval = interval;
    this.details = details;
    this.reports = reports;
    this.listener = listener;
    this.commands = commands;
    this.lifeCycle = new LifeCycle(nodeName + "-scm-heartbeat");
  }

  public void start() {
    lifeCycle.startBegins();
    channels = scms.stream().map(RpcChannel::open).toList();
    scheduler = Threads.scheduler(nodeName + "-scm-heartbeat");
    Threads.everyPeriod(scheduler, nodeName + ": heartbeat", Duration.ZERO, interval, this::beat);
    if (scms.size() > 1) {
      channels.forEach(channel -> beatWhenDropped(channel, channel.getState(false)));
    }
    lifeCycle.startEnds();
  }

  /** Beats at once when {@code channel} leaves READY: the SCM it led to stopped, another may lead now. */
  private void beatWhenDropped(ManagedChannel channel, ConnectivityState was) {
    channel.notifyWhenStateChanged(was, () -> {
      ConnectivityState now = channel.getState(false);
      if (was == ConnectivityState.READY && now != ConnectivityState.READY) {
        beatSoon(Duration.ZERO);
      }
      if (now != ConnectivityState.SHUTDOWN) {
        beatWhenDropped(channel, now);
      }
    });
  }

  /** An extra beat after {@code delay}, unless one is due already; it runs on the scheduler thread like every beat. */
  private void beatSoon(Duration delay) {
    if (!extraBeatDue.compareAndSet(false, true)) {
      return;
    }
    try {
      scheduler.schedule(() -> {
        extraBeatDue.set(false);
        try {
          beat();
        } catch (RuntimeException e) {
          LOG.error("{}: heartbeat failed", nodeName, e);
        }
      }, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closing: no more beats.
    }
  }

  private void beat() {
    // Built once: the deletions it acknowledges are taken from the node as it is built.
    HeartbeatRequest heartbeat = registered ? heartbeatRequest() : null;
    ScmException failure = null;
    for (int tries = 0; tries < scms.size(); tries++) {
      if (scms.size() > 1) {
        // A follower's port was closed when last tried; it may lead and listen now (skip gRPC's back-off).
        channels.get(current).resetConnectBackoff();
      }
      try {
        if (!registered) {
          register();
        } else {
          heartbeat(heartbeat == null ? heartbeatRequest() : heartbeat);
        }
        if (!lastFailure.isEmpty()) {
          LOG.info("{}: SCM at {} is reachable again", nodeName, scm());
          lastFailure = "";
        }
        return;
      } catch (StatusRuntimeException e) {
        failure = ScmException.fromRpc(e, scm().toString());
      } catch (ScmException e) {
        failure = e;
      }
      if (failure.result() != ScmResult.SCM_NOT_READY) {
        break;
      }
      // Not this SCM (down, or a follower that does not serve): the next one of the service.
      current = (current + 1) % scms.size();
      registered = false;
      heartbeat = null;
    }
    failed(failure);
    if (scms.size() > 1 && RETRY_PAUSE.compareTo(interval) < 0) {
      beatSoon(RETRY_PAUSE);
    }
  }

  private HostPort scm() {
    return scms.get(current);
  }

  private HeartbeatRequest heartbeatRequest() {
    return HeartbeatRequest.newBuilder().setDatanodeUuid(details.get().getUuid()).setNodeReport(reports.node().get())
        .addAllPipelineReports(reports.pipelines().get()).addAllContainerReports(reports.containers().get())
        .addAllDeleteBlocksAcks(reports.deletions().get()).build();
  }

  private void register() throws ScmException {
    DatanodeDetails me = details.get();
    RegisterResponse response = stub().register(RegisterRequest.newBuilder().setDatanode(me)
        .setNodeReport(reports.node().get()).build());
    listener.registered(response);
    registered = true;
    registeredAs = me;
    LOG.info("{}: registered with SCM at {} as {} on rack {} (cluster {})", nodeName, scm(), me.getHostName(),
        response.getNetworkLocation(), response.getClusterId());
  }

  /** Registers again when the node's details changed (e.g. its ports became known); else heartbeats. */
  private void heartbeat(HeartbeatRequest request) throws ScmException {
    if (!details.get().equals(registeredAs)) {
      register();
      return;
    }
    HeartbeatResponse response = stub().heartbeat(request);
    for (ScmCommand command : response.getCommandsList()) {
      if (command.hasReregister()) {
        LOG.info("{}: SCM at {} asked this datanode to register again", nodeName, scm());
        registered = false;
      } else {
        commands.accept(command);
      }
    }
    if (!registered) {
      register();
    }
  }

  private ScmDatanodeServiceGrpc.ScmDatanodeServiceBlockingStub stub() {
    return ScmDatanodeServiceGrpc.newBlockingStub(channels.get(current)).withDeadlineAfter(CALL_TIMEOUT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void failed(ScmException e) {
    String failure = e.result() + ": " + e.getMessage();
    if (!failure.equals(lastFailure)) {
      LOG.warn("{}: {} with SCM at {} failed, retrying every {}: {}", nodeName, registered ? "heartbeat"
          : "registration", scms.size() == 1 ? scm() : scms, interval, failure);
      lastFailure = failure;
    }
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    if (scheduler != null) {
      Threads.shutdown(scheduler, Duration.ofSeconds(5));
    }
    if (channels != null) {
      channels.forEach(ManagedChannel::shutdownNow);
    }
    lifeCycle.closeEnds();
  }
}
