package org.tropos.common.rpc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.tropos.common.net.HostPort;

/**
 * The servers of this JVM, by the address each listens on, so that a client in the same JVM reaches them without
 * a loopback socket: gRPC services through gRPC's in-process transport (the same services, interceptors and
 * stubs, without HTTP/2 framing, two socket hops and the encoding of each message), datanode read servers
 * through {@link LocalBlockSource}, and datanode Raft servers through {@link LocalRaftServer}. Only a call that a
 * socket would have delivered to this very JVM is made in-process: one to a port bound here, on a local address.
 * The system property {@value #PROPERTY}{@code =false} sends them over the sockets again (a baseline; a benchmark
 * of the gRPC service itself), looked at on each call.
 */
public final class InProcessServers {
  public static final String PROPERTY = "tropos.rpc.inProcess";
  private static final Listeners<String> GRPC = new Listeners<>();
  private static final Listeners<LocalBlockSource> READS = new Listeners<>();
  private static final Listeners<LocalRaftServer> RAFT = new Listeners<>();
  /** Where a connection to each address asked about would land: empty when it cannot be this JVM. */
  private static final Map<HostPort, Optional<Target>> TARGETS = new ConcurrentHashMap<>();

  private InProcessServers() {
  }

  private static boolean enabled() {
    return !"false".equalsIgnoreCase(System.getProperty(PROPERTY));
  }

  /** Makes the gRPC server listening on {@code bound} reachable in-process; returns its in-process name. */
  static String addGrpc(InetSocketAddress bound) {
    String name = "tropos-rpc-" + normalized(bound);
    GRPC.add(bound, name);
    return name;
  }

  static void removeGrpc(InetSocketAddress bound) {
    GRPC.remove(bound);
  }

  /** The in-process name of the gRPC server of this JVM that a connection to {@code address} would reach, or null. */
  static String grpcAt(HostPort address) {
    return GRPC.at(address);
  }

  /** Makes the read server listening on {@code bound} readable in-process. */
  public static void addReads(InetSocketAddress bound, LocalBlockSource source) {
    READS.add(bound, source);
  }

  public static void removeReads(InetSocketAddress bound) {
    READS.remove(bound);
  }

  /** The read server of this JVM that a connection to {@code address} would reach, or null. */
  public static LocalBlockSource readsAt(HostPort address) {
    return READS.at(address);
  }

  /** Makes the Raft server listening on {@code bound} reachable in-process. */
  public static void addRaft(InetSocketAddress bound, LocalRaftServer server) {
    RAFT.add(bound, server);
  }

  public static void removeRaft(InetSocketAddress bound) {
    RAFT.remove(bound);
  }

  /** The Raft server of this JVM that a connection to {@code address} would reach, or null. */
  public static LocalRaftServer raftAt(HostPort address) {
    return RAFT.at(address);
  }

  /** Every wildcard address (IPv4's, IPv6's) as one key. */
  private static InetSocketAddress normalized(InetSocketAddress bound) {
    return bound.getAddress().isAnyLocalAddress() ? new InetSocketAddress(bound.getPort()) : bound;
  }

  /**
   * The two listening addresses a connection to {@code address} could reach in this JVM: the address itself, or
   * the wildcard on the same port when the address is one of this machine's. Looked up once per address: the
   * name may need DNS.
   */
  private static Optional<Target> target(HostPort address) {
    return TARGETS.computeIfAbsent(address, a -> {
      try {
        InetAddress resolved = InetAddress.getByName(a.host());
        return isLocal(resolved) ? Optional.of(new Target(new InetSocketAddress(resolved, a.port()),
            new InetSocketAddress(a.port()))) : Optional.empty();
      } catch (UnknownHostException e) {
        return Optional.empty();
      }
    });
  }

  private static boolean isLocal(InetAddress address) {
    if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
      return true;
    }
    try {
      return NetworkInterface.getByInetAddress(address) != null;
    } catch (SocketException e) {
      return false;
    }
  }

  private record Target(InetSocketAddress exact, InetSocketAddress wildcard) {
  }

  /** Servers of one kind by the (normalized) address each listens on. */
  private static final class Listeners<T> {
    private final Map<InetSocketAddress, T> byAddress = new ConcurrentHashMap<>();

    void add(InetSocketAddress bound, T server) {
      byAddress.put(normalized(bound), server);
    }

    void remove(InetSocketAddress bound) {
      byAddress.remove(normalized(bound));
    }

    T at(HostPort address) {
      if (byAddress.isEmpty() || !enabled()) {
        return null;
      }
      Target target = target(address).orElse(null);
      if (target == null) {
        return null;
      }
      T server = byAddress.get(target.exact());
      return server != null ? server : byAddress.get(target.wildcard());
    }
  }
}
