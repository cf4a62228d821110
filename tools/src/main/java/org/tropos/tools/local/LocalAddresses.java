package org.tropos.tools.local;

import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;
import org.tropos.common.net.HostPort;

/**
 * Where a local cluster's daemons listen: all on loopback, each datanode on a loopback address of its own
 * ({@code 127.0.0.11}, {@code 127.0.0.12}, ...) so it looks like a host of its own and may take the standard ports,
 * its rack alternating {@code /rack1}, {@code /rack2} so placement has racks to spread over.
 */
final class LocalAddresses {
  static final String LOOPBACK = "127.0.0.1";
  private static final int FIRST_DATANODE_OCTET = 11;

  private LocalAddresses() {
  }

  static String datanode(int i) {
    return "127.0.0." + (FIRST_DATANODE_OCTET + i - 1);
  }

  static String rack(int i) {
    return i % 2 == 1 ? "/rack1" : "/rack2";
  }

  /** SCM's topology table mapping each of {@code datanodes} to its rack. */
  static String topologyTable(int datanodes) {
    StringBuilder racks = new StringBuilder("# Written by tropos local: datanode address -> rack\n");
    for (int i = 1; i <= datanodes; i++) {
      racks.append(datanode(i)).append(' ').append(rack(i)).append('\n');
    }
    return racks.toString();
  }

  /** The address {@code key} configures in {@code conf}, moved to loopback, its port kept. */
  static String onLoopback(Configuration conf, ConfigKey<String> key, int defaultPort) {
    return LOOPBACK + ":" + HostPort.parse(conf.get(key), defaultPort, key.name()).port();
  }

  /** The address {@code key} configures in {@code conf}, moved to datanode {@code i}'s own address, its port kept. */
  static String onDatanode(Configuration conf, int i, ConfigKey<String> key) {
    return datanode(i) + ":" + HostPort.parse(conf.get(key), 0, key.name()).port();
  }
}
