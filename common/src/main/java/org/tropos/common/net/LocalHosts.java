package org.tropos.common.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;

/** Whether a host name is this machine: how a member of an HA service finds itself among the configured nodes. */
public final class LocalHosts {
  private LocalHosts() {
  }

  /** Whether {@code host} resolves to an address of this machine (a name that does not resolve is not). */
  public static boolean isLocal(String host) {
    try {
      InetAddress address = InetAddress.getByName(host);
      return address.isAnyLocalAddress() || address.isLoopbackAddress()
          || NetworkInterface.getByInetAddress(address) != null;
    } catch (IOException e) {
      return false;
    }
  }
}
