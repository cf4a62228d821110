package org.tropos.common.net;

/** Maps a node, by host name or IP address, to its rack ({@code /rack1}), as Hadoop's DNSToSwitchMapping does. */
public interface RackResolver {
  String DEFAULT_RACK = "/default-rack";

  /** The rack of the node known by {@code hostName} and {@code ipAddress}; {@link #DEFAULT_RACK} if unmapped. */
  String resolve(String hostName, String ipAddress);
}
