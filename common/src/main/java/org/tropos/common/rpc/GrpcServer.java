package org.tropos.common.rpc;

import com.google.protobuf.ProtocolMessageEnum;
import io.grpc.BindableService;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.audit.AuditLog;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.TransportSecurity;
import org.tropos.common.security.UserAuthenticator;
import org.tropos.common.util.LifeCycle;
import org.tropos.common.util.Preconditions;
import org.tropos.common.util.SystemClock;
import org.tropos.common.util.Threads;

/**
 * A gRPC server on one address. Service methods run on a named, bounded pool, never on Netty's event loops,
 * so handlers may touch RocksDB or disks; a call reaches the pool in one hand-off ({@link HandlerHandOff}). When
 * the pool's queue is full a call is refused at once (RESOURCE_EXHAUSTED). Clients in the same JVM reach the same
 * services through an in-process twin of the server ({@link InProcessServers}).
 */
public final class GrpcServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GrpcServer.class);
  private static final int QUEUE_LIMIT = 1024;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private final String name;
  private final HostPort bind;
  private final List<BindableService> services;
  private final int handlerThreads;
  private final GrpcCallMetrics callMetrics;
  private final LifeCycle lifeCycle;
  private ServerInterceptor admission = new ServerInterceptor() {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      return next.startCall(call, headers);
    }
  };
  private TransportSecurity security = TransportSecurity.plaintext();
  private UserAuthenticator users = UserAuthenticator.NONE;
  private UserAuthenticator s3Requests = UserAuthenticator.NONE;
  private PeerRoles.Admission peers;
  private ServerInterceptor audit;
  private ExecutorService executor;
  private Server server;
  private Server inProcess;
  private InetSocketAddress bound;

  /** A server whose calls are not timed (a registry with no children keeps no meters). */
  public GrpcServer(String name, HostPort bind, int handlerThreads, List<BindableService> services) {
    this(name, bind, handlerThreads, services, new CompositeMeterRegistry());
  }

  /**
   * {@code name} names the threads ({@code <node>-<component>}); port 0 picks a free port. Every call is timed in
   * {@code metrics} by service, method and status code.
   */
  public GrpcServer(String name, HostPort bind, int handlerThreads, List<BindableService> services,
      MeterRegistry metrics) {
    this.name = name;
    this.bind = bind;
    this.services = List.copyOf(services);
    this.handlerThreads = handlerThreads;
    this.callMetrics = new GrpcCallMetrics(metrics);
    this.lifeCycle = new LifeCycle(name);
  }

  /**
   * Decides, before start, which calls are refused at once rather than handed to a handler (say, those that bring
   * data in while the heap is under pressure: {@link ShedUnderPressure}); refusals are timed as other calls.
   */
  public GrpcServer admitting(ServerInterceptor admission) {
    Preconditions.assertTrue(lifeCycle.state() == LifeCycle.State.NEW, "{} has started", name);
    this.admission = admission;
    return this;
  }

  /**
   * Decides, before start, that the server speaks TLS as {@code security} says and admits only the peers
   * {@code peers} names ({@link PeerRoles}), on the network and in process alike.
   */
  public GrpcServer secured(TransportSecurity security, PeerRoles.Admission peers) {
    Preconditions.assertTrue(lifeCycle.state() == LifeCycle.State.NEW, "{} has started", name);
    this.security = security;
    this.peers = peers;
    return this;
  }

  /**
   * Decides, before start, how a secure server proves callers without a certificate: by Kerberos, by the OM's
   * delegation tokens (by default it takes neither, and such callers are nobody).
   */
  public GrpcServer authenticatingUsers(UserAuthenticator users) {
    Preconditions.assertTrue(lifeCycle.state() == LifeCycle.State.NEW, "{} has started", name);
    this.users = users;
    return this;
  }

  /**
   * Writes an audit line for each call of the methods {@code audited} takes (by full name) to {@code log}, refused
   * ones included; {@code results} is the services' Result enum's {@code forNumber}. Call before {@link #start}.
   */
  public GrpcServer auditing(AuditLog log, Predicate<String> audited,
      IntFunction<? extends ProtocolMessageEnum> results) {
    Preconditions.assertTrue(lifeCycle.state() == LifeCycle.State.NEW, "{} has started", name);
    this.audit = new AuditInterceptor(log, audited, results, SystemClock.INSTANCE);
    return this;
  }

  /**
   * Decides, before start, how a secure server checks the S3 request a gateway's call carries the proof of
   * ({@link S3RequestProofs}); by default it takes none, refuses a call that carries one, and the gateway's other
   * calls are nobody's.
   */
  public GrpcServer authenticatingS3Requests(UserAuthenticator s3Requests) {
    Preconditions.assertTrue(lifeCycle.state() == LifeCycle.State.NEW, "{} has started", name);
    this.s3Requests = s3Requests;
    return this;
  }

  public void start() throws IOException {
    lifeCycle.startBegins();
    executor = Threads.boundedPool(name + "-handler", handlerThreads, QUEUE_LIMIT);
    try {
      NettyServerBuilder network = NettyServerBuilder.forAddress(new InetSocketAddress(bind.host(), bind.port()));
      if (security.tls()) {
        network.sslContext(security.serverContext());
      }
      server = withServices(network, PeerRoles::overTls).build().start();
      bound = new InetSocketAddress(bind.host(), server.getPort());
      inProcess = withServices(InProcessServerBuilder.forName(InProcessServers.addGrpc(bound)),
          PeerRoles::inProcess).build().start();
    } catch (IOException e) {
      close();
      throw new IOException(name + " cannot listen on " + bind + ": " + e.getMessage(), e);
    }
    lifeCycle.startEnds();
    LOG.info("{}: listening on {}", name, new HostPort(bind.host(), port()));
  }

  /**
   * Events delivered where they arrive, handlers run on the pool (one hand-off), the caller's user known; with
   * TLS, peers checked as they reach this server ({@code peerCheck}) before anything else.
   */
  private <B extends ServerBuilder<B>> B withServices(B builder,
      Function<PeerRoles.Admission, PeerRoles> peerCheck) {
    builder.directExecutor().intercept(security.tls() ? Callers.receivingAuthenticated(users, s3Requests)
        : Callers.receiving())
        .intercept(RequestConditions.receiving(security.tls()))
        .intercept(CallIds.receiving())
        .intercept(new HandlerHandOff(executor)).intercept(admission);
    if (security.tls()) {
      builder.intercept(peerCheck.apply(peers));
    }
    if (audit != null) {
      builder.intercept(audit);
    }
    builder.intercept(callMetrics);
    services.forEach(builder::addService);
    return builder;
  }

  /** The port actually bound (differs from the configured one when that was 0). */
  public int port() {
    lifeCycle.assertRunning();
    return server.getPort();
  }

  @Override
  public void close() {
    if (!lifeCycle.closeBegins()) {
      return;
    }
    if (bound != null) {
      InProcessServers.removeGrpc(bound);
    }
    stop(inProcess);
    stop(server);
    if (executor != null) {
      Threads.shutdown(executor, STOP_TIMEOUT);
    }
    lifeCycle.closeEnds();
  }

  private static void stop(Server server) {
    if (server == null) {
      return;
    }
    server.shutdown();
    try {
      if (!server.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
