package org.tropos.common.net;

import org.tropos.common.conf.ConfigException;

/** A {@code host:port} pair as configuration writes it. */
public record HostPort(String host, int port) {
  /**
   * Parses {@code host[:port]}; a missing port takes {@code defaultPort}. {@code key} names the configuration
   * key in the error.
   */
  public static HostPort parse(String text, int defaultPort, String key) {
    String s = text.trim();
    int colon = s.lastIndexOf(':');
    if (colon < 0) {
      return new HostPort(s, defaultPort);
    }
    try {
      int port = Integer.parseInt(s.substring(colon + 1));
      if (port < 0 || port > 65535 || colon == 0) {
        throw new NumberFormatException();
      }
      return new HostPort(s.substring(0, colon), port);
    } catch (NumberFormatException e) {
      throw new ConfigException("Invalid value '" + text + "' for " + key + ": expected host[:port]");
    }
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
