package org.tropos.datanode.scm;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.util.Closer;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Threads;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.scm.HeartbeatRequest;
import org.tropos.proto.scm.RegisterResponse;
import org.tropos.proto.scm.ScmCommand;

/**
 * The datanode's links to SCM: registers, then heartbeats every interval with the node's reports, and acts on the
 * commands in the responses. Given the SCMs of an HA service it registers and heartbeats with every one of them
 * ({@link ScmLink}, one each), as Ozone's datanodes do: a follower records what the datanode reports and answers
 * with no command, so commands come from the leader only, and an SCM that takes over already knows the datanode,
 * its pipelines and its replicas, whether the old leader stopped or was cut off. Each beat's reports are built
 * once and sent to every SCM (the deletions they acknowledge are taken from the node as they are built: only the
 * leader records them; a beat the leader misses loses them, and it sends the deletions again later).
 *
 * <p>Thread-safety: beats are started on one scheduler thread; registrations are told to the listener one at a time.
 */
public final class ScmHeartbeat implements AutoCloseable {
  /** How soon {@link #beatSoon} beats: changes within it share the beat. */
  private static final Duration SOON = Duration.ofMillis(100);
  /** Told of each successful registration, before any heartbeat follows it. */
  @FunctionalInterface
  public interface RegistrationListener {
    void registered(RegisterResponse response) throws ScmException;
  }

  private final String nodeName;
  private final List<HostPort> scms;
  private final TransportSecurity transport;
  private final Duration interval;
  private final Supplier<DatanodeDetails> details;
  private final HeartbeatReports reports;
  private final RegistrationListener listener;
  private final Consumer<ScmCommand> commands;
  private final LifeCycle lifeCycle;
  private List<ScmLink> links = List.of();
  private volatile ScheduledExecutorService scheduler;
  /** A beat is due within {@link #SOON}. */
  private final AtomicBoolean soon = new AtomicBoolean();

  /**
   * @param reports what each heartbeat reports
   * @param commands receives SCM's commands other than re-register; must return at once
   */
  public ScmHeartbeat(String nodeName, List<HostPort> scms, TransportSecurity transport, Duration interval,
      Supplier<DatanodeDetails> details, HeartbeatReports reports, RegistrationListener listener,
      Consumer<ScmCommand> commands) {
    this.nodeName = nodeName;
    this.scms = List.copyOf(scms);
    this.transport = transport;
    this.interval = interval;
    this.details = details;
    this.reports = reports;
    this.listener = listener;
    this.commands = commands;
    this.lifeCycle = new LifeCycle(nodeName + "-scm-heartbeat");
  }

  public void start() {
    lifeCycle.startBegins();
    // The links register on threads of their own; the listener (which may start the data path) runs one at a time.
    RegistrationListener oneAtATime = response -> {
      synchronized (this) {
        listener.registered(response);
      }
    };
    links = scms.stream().map(scm -> new ScmLink(nodeName, scm, transport, interval, details, reports.node(),
        oneAtATime, commands)).toList();
    scheduler = Threads.scheduler(nodeName + "-scm-heartbeat");
    Threads.everyPeriod(scheduler, nodeName + ": heartbeat", Duration.ZERO, interval, this::beat);
    lifeCycle.startEnds();
  }

  /**
   * Sends a heartbeat within {@link #SOON} besides the periodic ones: a replica changed state, and SCM (closing a
   * container, planning its repair) should not wait a whole interval to hear it, as Ozone's incremental container
   * reports. Changes that come together share one beat.
   */
  public void beatSoon() {
    ScheduledExecutorService s = scheduler;
    if (s == null || !soon.compareAndSet(false, true)) {
      return;
    }
    try {
      s.schedule(() -> {
        soon.set(false);
        beat();
      }, SOON.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      soon.set(false); // Closing: no more beats.
    }
  }

  private void beat() {
    // Built only for an SCM that will take it: the deletions it acknowledges are taken from the node.
    HeartbeatRequest heartbeat = links.stream().anyMatch(ScmLink::registered) ? heartbeatRequest() : null;
    links.forEach(link -> link.beat(heartbeat));
  }

  private HeartbeatRequest heartbeatRequest() {
    return HeartbeatRequest.newBuilder().setDatanodeUuid(details.get().getUuid()).setNodeReport(reports.node().get())
        .addAllPipelineReports(reports.pipelines().get()).addAllContainerReports(reports.containers().get())
        .addAllDeleteBlocksAcks(reports.deletions().get()).build();
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    Closer.closeAll(nodeName + " heartbeat", scheduler == null ? null
        : () -> Threads.shutdown(scheduler, Duration.ofSeconds(5)), () -> links.forEach(ScmLink::close));
    lifeCycle.closeEnds();
  }
}
