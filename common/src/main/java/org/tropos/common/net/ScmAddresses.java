package org.tropos.common.net;

import java.util.List;
import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.ScmKeys;

/**
 * Where SCM's services are, as datanodes and clients find them (a specific address, else ozone.scm.names), and
 * where the OM is.
 */
public final class ScmAddresses {
  private ScmAddresses() {
  }

  /** The datanode service of every SCM of the HA service, or the single SCM's. */
  public static List<HostPort> datanodeServices(Configuration conf) {
    return ScmService.from(conf).map(s -> s.nodes().stream().map(ScmService.Node::datanode).toList())
        .orElseGet(() -> List.of(datanodeService(conf)));
  }

  /** The block service of every SCM of the HA service, or the single SCM's. */
  public static List<HostPort> blockServices(Configuration conf) {
    return ScmService.from(conf).map(s -> s.nodes().stream().map(ScmService.Node::block).toList())
        .orElseGet(() -> List.of(blockService(conf)));
  }

  /** The client service of every SCM of the HA service, or the single SCM's. */
  public static List<HostPort> clientServices(Configuration conf) {
    return ScmService.from(conf).map(s -> s.nodes().stream().map(ScmService.Node::client).toList())
        .orElseGet(() -> List.of(clientService(conf)));
  }

  public static HostPort datanodeService(Configuration conf) {
    return resolve(conf, ScmKeys.DATANODE_ADDRESS, ScmKeys.DATANODE_PORT);
  }

  public static HostPort blockService(Configuration conf) {
    return resolve(conf, ScmKeys.BLOCK_ADDRESS, ScmKeys.BLOCK_PORT);
  }

  public static HostPort clientService(Configuration conf) {
    return resolve(conf, ScmKeys.CLIENT_ADDRESS, ScmKeys.CLIENT_PORT);
  }

  /** The OM's client service: ozone.om.address, else localhost with ozone.om.port. */
  public static HostPort omService(Configuration conf) {
    int port = conf.get(OmKeys.PORT);
    String address = conf.get(OmKeys.ADDRESS);
    return address.isBlank() ? new HostPort("localhost", port) : HostPort.parse(address, port, OmKeys.ADDRESS.name());
  }

  private static HostPort resolve(Configuration conf, ConfigKey<String> addressKey, ConfigKey<Integer> portKey) {
    int port = conf.get(portKey);
    String address = conf.get(addressKey);
    if (!address.isBlank()) {
      return HostPort.parse(address, port, addressKey.name());
    }
    List<String> names = conf.get(ScmKeys.NAMES);
    return names.isEmpty() ? new HostPort("localhost", port) : HostPort.parse(names.get(0), port, ScmKeys.NAMES.name());
  }
}
