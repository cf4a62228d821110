package org.tropos.common.rpc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.tropos.common.net.HostPort;

/**
 * The gRPC servers of this JVM, by the address each listens on, so that a client in the same JVM reaches them
 * through gRPC's in-process transport instead of a loopback socket: the same services, interceptors and stubs,
 * without HTTP/2 framing, two socket hops and the serialization of each message (in {@code tropos local} the S3
 * gateway's two OM calls per request were a third of a small GET's CPU). Only a call that a socket would have
 * delivered to this very JVM goes in-process: one to a port bound here, on a local address. The system property
 * {@value #PROPERTY}{@code =false} turns it off, for the benchmark's baseline.
 */
public final class InProcessServers {
  static final String PROPERTY = "tropos.rpc.inProcess";
  private static final boolean ENABLED = Boolean.parseBoolean(System.getProperty(PROPERTY, "true"));
  private static final Map<InetSocketAddress, String> BY_ADDRESS = new ConcurrentHashMap<>();

  private InProcessServers() {
  }

  static boolean enabled() {
    return ENABLED;
  }

  /** Makes the server listening on {@code bound} reachable in-process; returns its in-process name. */
  static String add(InetSocketAddress bound) {
    InetSocketAddress key = normalized(bound);
    String name = "tropos-rpc-" + key;
    BY_ADDRESS.put(key, name);
    return name;
  }

  static void remove(InetSocketAddress bound) {
    BY_ADDRESS.remove(normalized(bound));
  }

  /** Every wildcard address (IPv4's, IPv6's) as one key. */
  private static InetSocketAddress normalized(InetSocketAddress bound) {
    return bound.getAddress().isAnyLocalAddress() ? new InetSocketAddress(bound.getPort()) : bound;
  }

  /**
   * Where a connection to one address lands if a server of this JVM listens there: on that address itself, or
   * on the wildcard address and the same port when the address is one of this machine's. Null when the address
   * cannot land here (not resolvable, or not local), so the channel never looks again.
   */
  static Target target(HostPort address) {
    if (!ENABLED) {
      return null;
    }
    InetAddress resolved;
    try {
      resolved = InetAddress.getByName(address.host());
    } catch (UnknownHostException e) {
      return null;
    }
    if (!isLocal(resolved)) {
      return null;
    }
    return new Target(new InetSocketAddress(resolved, address.port()), new InetSocketAddress(address.port()));
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

  /** The two listening addresses a connection to one local address would reach. */
  record Target(InetSocketAddress exact, InetSocketAddress wildcard) {
    /** The in-process name of the server of this JVM listening there now, or null. */
    String serverName() {
      String name = BY_ADDRESS.get(exact);
      return name != null ? name : BY_ADDRESS.get(wildcard);
    }
  }
}
