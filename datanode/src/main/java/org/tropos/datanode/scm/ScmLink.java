package org.tropos.datanode.scm;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.fault.FaultPoints;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.RpcChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Threads;
import org.tropos.datanode.scm.ScmHeartbeat.RegistrationListener;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.HeartbeatResponse;
import org.tropos.proto.scm.RegisterRequest;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmCommand;
import org.tropos.proto.scm.ScmDatanodeServiceGrpc;
import org.tropos.proto.scm.ScmResult;

/**
 * The datanode's link to one SCM: registers with it, then sends it the heartbeats it is given, on a thread of its
 * own so that an SCM that does not answer (cut off, or stopped without closing its connections) delays no other
 * SCM's beats; a beat that comes while the last one still waits for its answer is skipped. Logs once when the SCM
 * cannot be reached and once when it is back.
 *
 * <p>Thread-safety: beats run one at a time on the link's thread, which owns the registration state.
 */
final class ScmLink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScmLink.class);
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
  /**
   * The first pause before a failed registration is tried again, doubled after each failure up to the heartbeat
   * interval: a datanode that starts with its SCMs (or before an HA service has elected its first leader) is not
   * left out for a whole interval (30 s by default).
   */
  static final Duration FIRST_REGISTRATION_RETRY = Duration.ofMillis(500);

  private final String nodeName;
  private final HostPort scm;
  private final Duration interval;
  private final Supplier<DatanodeDetails> details;
  private final Supplier<NodeReport> nodeReport;
  private final RegistrationListener listener;
  private final Consumer<ScmCommand> commands;
  private final ManagedChannel channel;
  private final ScheduledExecutorService thread;
  private final AtomicBoolean beating = new AtomicBoolean();
  private volatile boolean registered;
  private DatanodeDetails registeredAs;
  private String lastFailure = "";
  private Duration registrationRetry = FIRST_REGISTRATION_RETRY;

  ScmLink(String nodeName, HostPort scm, TransportSecurity transport, Duration interval,
      Supplier<DatanodeDetails> details, Supplier<NodeReport> nodeReport, RegistrationListener listener,
      Consumer<ScmCommand> commands) {
    this.nodeName = nodeName;
    this.scm = scm;
    this.interval = interval;
    this.details = details;
    this.nodeReport = nodeReport;
    this.listener = listener;
    this.commands = commands;
    this.channel = RpcChannel.open(scm, new RpcChannel.ServerTrust(transport, ServiceRole.SCM));
    this.thread = Threads.scheduler(nodeName + "-scm-" + scm.port());
  }

  /** Whether this SCM accepted the datanode's registration (and has not asked for another since). */
  boolean registered() {
    return registered;
  }

  /**
   * Registers, or sends {@code heartbeat} (built for every SCM alike; null if none was registered when it was
   * built), on the link's thread unless its last beat is still running.
   */
  void beat(HeartbeatRequest heartbeat) {
    if (!beating.compareAndSet(false, true)) {
      return;
    }
    try {
      thread.execute(() -> {
        try {
          beatNow(heartbeat);
        } finally {
          beating.set(false);
        }
      });
    } catch (RejectedExecutionException e) {
      beating.set(false); // Closing: no more beats.
    }
  }

  private void beatNow(HeartbeatRequest heartbeat) {
    try {
      if (!registered) {
        register();
      } else if (heartbeat != null) {
        heartbeat(heartbeat);
      }
      if (!lastFailure.isEmpty()) {
        LOG.info("{}: SCM at {} is reachable again", nodeName, scm);
        lastFailure = "";
      }
      registrationRetry = FIRST_REGISTRATION_RETRY;
    } catch (StatusRuntimeException e) {
      failed(ScmException.fromRpc(e, scm.toString()));
    } catch (ScmException e) {
      failed(e);
    } catch (RuntimeException e) {
      LOG.error("{}: heartbeat to SCM at {} failed", nodeName, scm, e);
    }
  }

  /** After a failed registration: tries again soon (see {@link #FIRST_REGISTRATION_RETRY}). */
  private void retryRegistration() {
    if (registered || registrationRetry.compareTo(interval) >= 0) {
      return;
    }
    Duration pause = registrationRetry;
    registrationRetry = registrationRetry.multipliedBy(2);
    try {
      thread.schedule(() -> beat(null), pause.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // Closing: no more beats.
    }
  }

  private void register() throws ScmException {
    channel.resetConnectBackoff(); // SCM may have started since the last try: skip gRPC's back-off.
    DatanodeDetails me = details.get();
    RegisterResponse response = stub().register(RegisterRequest.newBuilder().setDatanode(me)
        .setNodeReport(nodeReport.get()).build());
    listener.registered(response);
    registered = true;
    registeredAs = me;
    LOG.info("{}: registered with SCM at {} as {} on rack {} (cluster {})", nodeName, scm, me.getHostName(),
        response.getNetworkLocation(), response.getClusterId());
  }

  /** Registers again when the node's details changed (e.g. its ports became known); else heartbeats. */
  private void heartbeat(HeartbeatRequest request) throws ScmException {
    if (!details.get().equals(registeredAs)) {
      register();
      return;
    }
    try {
      FaultPoints.hit(FaultPoints.HEARTBEAT_SEND);
    } catch (IOException e) {
      throw new ScmException(ScmResult.SCM_NOT_READY, "heartbeat to SCM at " + scm + " not sent: " + e.getMessage());
    }
    HeartbeatResponse response = stub().heartbeat(request);
    for (ScmCommand command : response.getCommandsList()) {
      if (command.hasReregister()) {
        LOG.info("{}: SCM at {} asked this datanode to register again", nodeName, scm);
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
    return ScmDatanodeServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_TIMEOUT.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private void failed(ScmException e) {
    retryRegistration();
    String failure = e.result() + ": " + e.getMessage();
    if (!failure.equals(lastFailure)) {
      LOG.warn("{}: {} with SCM at {} failed, retrying within {}: {}", nodeName, registered ? "heartbeat"
          : "registration", scm, interval, failure);
      lastFailure = failure;
    }
  }

  @Override
  public void close() {
    channel.shutdownNow(); // first: a beat waiting for an SCM that does not answer ends at once
    Threads.shutdown(thread, STOP_TIMEOUT);
  }
}
