package org.tropos.common.net;

import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;

/** Where to reach a datanode's services, from the details it registered with SCM. */
public final class DatanodeAddresses {
  private DatanodeAddresses() {
  }

  /** The datanode's IP address (as it advertised it), else its host name. */
  public static String host(DatanodeDetails node) {
    return node.getIpAddress().isEmpty() ? node.getHostName() : node.getIpAddress();
  }

  /** The address of one of the datanode's services; an error if it registered no such port. */
  public static HostPort of(DatanodeDetails node, PortName service) {
    int port = node.getPortsList().stream().filter(p -> p.getName() == service).mapToInt(Port::getValue)
        .findFirst().orElseThrow(() -> new IllegalArgumentException("datanode " + node.getHostName() + " has no "
            + service + " port"));
    return new HostPort(host(node), port);
  }
}
