package org.tropos.common.rpc;

import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.stub.AbstractStub;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;
import org.tropos.common.net.HostPort;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.TransportSecurity;

/**
 * A channel to one gRPC service of ours, shared by its clients: stubs get a deadline per call, and a failed call
 * arrives as the service's exception (with its Result, or "not ready" when the service cannot be reached). A call
 * to a server of this JVM goes in-process ({@link InProcessServers}), looked up at each call, since the server may
 * stop here and start elsewhere.
 *
 * @param <E> the service's exception
 */
public final class RpcChannel<E extends Exception> implements AutoCloseable {
  /** Turns a failed call into the service's exception. */
  @FunctionalInterface
  public interface Translator<E> {
    E translate(StatusRuntimeException failure, String target);
  }

  /**
   * How long a connection may take to open. A host that died without closing its connections (a killed container,
   * a lost machine) answers nothing; gRPC's 20 s default would hold a client that could fail over to another
   * server that long. The block port's clients ({@link BlockReadClient}) connect within it too.
   */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

  private final HostPort address;
  private final ManagedChannel channel;
  private final Translator<E> translator;
  private final Duration callTimeout;
  private final String user;
  private final TransportSecurity security;
  private final ServiceRole role;
  private volatile Twin twin;

  /** A plaintext channel whose calls are made as this process's user ({@link Callers#localUser}). */
  public RpcChannel(HostPort address, Translator<E> translator, Duration callTimeout) {
    this(address, translator, callTimeout, Callers.localUser(), ServerTrust.plaintext());
  }

  /**
   * A channel whose calls are made as {@code user}, to a server reached as {@code server} says.
   */
  public RpcChannel(HostPort address, Translator<E> translator, Duration callTimeout, String user, ServerTrust server) {
    this.address = address;
    this.translator = translator;
    this.callTimeout = callTimeout;
    this.user = user;
    this.security = server.security();
    this.role = server.role();
    this.channel = builder(address, server).intercept(Callers.sending(user)).intercept(proving(address, server))
        .build();
  }

  /**
   * How a channel reaches its server: with the process's transport security, and, with TLS, trusting a server
   * only if its certificate names {@code role}.
   */
  public record ServerTrust(TransportSecurity security, ServiceRole role) {
    /** No TLS (the role then says nothing). */
    public static ServerTrust plaintext() {
      return new ServerTrust(TransportSecurity.plaintext(), ServiceRole.SCM);
    }
  }

  /**
   * What proves the caller with each call to the server at {@code address}: the user's credential, if the process
   * has one; to an OM, what a gateway's thread knows of the S3 request it serves, if it serves one: its
   * conditions, and over TLS the proof of its signature.
   */
  private static List<ClientInterceptor> proving(HostPort address, ServerTrust server) {
    List<ClientInterceptor> proofs = new ArrayList<>();
    server.security().credential().ifPresent(c -> proofs.add(CredentialSending.to(c, server.role(), address.host())));
    if (server.role() == ServiceRole.OM) {
      proofs.add(RequestConditions.sending());
      if (server.security().tls()) {
        proofs.add(S3RequestProofs.sending());
      }
    }
    return proofs;
  }

  /** A channel to {@code address} that gives up opening a connection after the connect timeout. */
  public static ManagedChannel open(HostPort address, ServerTrust server) {
    return builder(address, server).build();
  }

  private static NettyChannelBuilder builder(HostPort address, ServerTrust server) {
    NettyChannelBuilder builder = NettyChannelBuilder.forAddress(address.host(), address.port())
        .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis());
    if (!server.security().tls()) {
      return builder.usePlaintext();
    }
    try {
      return builder.sslContext(server.security().clientContext(server.role()));
    } catch (SSLException e) {
      throw new IllegalStateException("TLS to " + address + " cannot be set up: " + e.getMessage(), e);
    }
  }

  /** A stub for this channel with the call deadline set, e.g. {@code stub(OmServiceGrpc::newBlockingStub)}. */
  public <S extends AbstractStub<S>> S stub(Function<ManagedChannel, S> newStub) {
    return newStub.apply(current()).withDeadlineAfter(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether the next call goes in-process (a server of this JVM listens on the address). */
  boolean inProcess() {
    return current() != channel;
  }

  /** The in-process channel while a server of this JVM listens on the address, else the network's. */
  private ManagedChannel current() {
    String name = InProcessServers.grpcAt(address);
    if (name == null) {
      return channel;
    }
    Twin known = twin;
    if (known != null && known.name().equals(name)) {
      return known.channel();
    }
    synchronized (this) {
      if (twin == null || !twin.name().equals(name)) {
        if (twin != null) {
          twin.channel().shutdown();
        }
        InProcessChannelBuilder builder = InProcessChannelBuilder.forName(name).intercept(Callers.sending(user))
            .intercept(proving(address, new ServerTrust(security, role)));
        security.subject().ifPresent(self -> builder.intercept(HeaderInterceptors.sending(PeerRoles.IN_PROCESS_PEER,
            PeerRoles.inProcessName(self))));
        twin = new Twin(name, builder.build());
      }
      return twin.channel();
    }
  }

  /** An in-process channel and the server name it reaches. */
  private record Twin(String name, ManagedChannel channel) {
  }

  /** Runs one call, translating its failure. */
  public <T> T call(Supplier<T> rpc) throws E {
    try {
      return rpc.get();
    } catch (StatusRuntimeException e) {
      throw translator.translate(e, address.toString());
    }
  }

  /**
   * Connects again at once if the channel is waiting out gRPC's reconnect back-off (up to two minutes after a
   * failed connection): a server that did not listen a moment ago (an HA follower that now leads) may now.
   */
  public void reconnectNow() {
    channel.resetConnectBackoff();
  }

  public HostPort address() {
    return address;
  }

  @Override
  public void close() {
    channel.shutdownNow();
    synchronized (this) {
      if (twin != null) {
        twin.channel().shutdownNow();
      }
    }
  }
}
