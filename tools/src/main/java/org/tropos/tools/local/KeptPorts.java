package org.tropos.tools.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for a local cluster's nodes that must keep their ports across restarts (a datanode's Ratis and read
 * addresses, the nodes of a local HA service). They are taken below Linux's ephemeral range (from 32768), from
 * which every outgoing connection draws its local port: a port the kernel handed out for a probe could later
 * become a connection's, and the restarted node would then fail to bind it (seen in {@code LocalHaIT}: "Address
 * already in use" for a kept OM port). The benchmarks' own clusters take theirs here too, for the same reason.
 * A port is handed out once per JVM: a probe finds a port free until its node binds it, so two picks of one
 * cluster start (an OM's and an SCM's) could otherwise get the same one (a CI run lost BenchFailoverIT so).
 */
public final class KeptPorts {
  private static final int FROM = 20_000;
  private static final int TO = 32_000;
  private static final int PROBES = 200;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private KeptPorts() {
  }

  /** A port free now on every address. */
  public static int pick() throws IOException {
    return pick(null);
  }

  /**
   * A port free now on {@code address} (null: every address); an ephemeral one only if {@value #PROBES} probes
   * below the range found none.
   */
  static int pick(InetAddress address) throws IOException {
    for (int attempt = 0; attempt < PROBES; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(FROM, TO);
      if (!HANDED_OUT.add(candidate)) {
        continue;
      }
      try (ServerSocket probe = new ServerSocket(candidate, 1, address)) {
        return candidate;
      } catch (IOException busy) {
        // taken by another process: try another (and leave it marked, it is no better a choice later)
      }
    }
    try (ServerSocket probe = new ServerSocket(0, 1, address)) {
      return probe.getLocalPort();
    }
  }
}
