package org.tropos.tools.local;

import java.io.IOException;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;

/**
 * The ports of a local cluster's datanodes that must survive their restarts: a datanode's Ratis address is in every
 * Raft group it belongs to, and clients hold its read address, so a port configured as 0 is picked free once, on
 * first start, and then kept.
 */
final class KeptDatanodePorts {
  private final Map<String, Integer> picked = new HashMap<>();

  /** Datanode {@code i}'s (1-based) port {@code key}: as configured in {@code base}, else the one picked for it. */
  int port(Configuration base, int i, ConfigKey<Integer> key) throws IOException {
    int configured = base.get(key);
    if (configured != 0) {
      return configured;
    }
    Integer pinned = picked.get(key.name() + "#" + i);
    if (pinned == null) {
      pinned = KeptPorts.pick(InetAddress.getByName(LocalAddresses.datanode(i)));
      picked.put(key.name() + "#" + i, pinned);
    }
    return pinned;
  }
}
