package org.tropos.common.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;

/**
 * This machine's names: whether a host name is this machine (how a member of an HA service finds itself among
 * the configured nodes), and the name it goes by.
 */
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

  /** This machine's host name, as its certificates name it; "localhost" when it has none that resolves. */
  public static String name() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
