package org.tropos.common.net;

import java.util.List;
import org.tropos.common.conf.ConfigKey;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;
import org.tropos.common.conf.S3GatewayKeys;
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

  /**
   * SCM's status port, where its web console is, as other daemons link to it: the host of ozone.scm.http-address,
   * or where that listens on every interface, the first SCM's client host.
   */
  public static HostPort scmHttp(Configuration conf) {
    return reachable(HostPort.parse(conf.get(ScmKeys.HTTP_ADDRESS), 0, ScmKeys.HTTP_ADDRESS.name()),
        clientServices(conf).get(0).host());
  }

  /**
   * The OM's status port: ozone.om.http-address, its host where that names none the OM's client host (the first
   * OM's of an HA service: a follower's counts are the leader's, applied).
   */
  public static HostPort omHttp(Configuration conf) {
    String host = OmService.from(conf).map(s -> s.nodes().get(0).rpc().host()).orElseGet(() -> omService(conf).host());
    return reachable(HostPort.parse(conf.get(OmKeys.HTTP_ADDRESS), 0, OmKeys.HTTP_ADDRESS.name()), host);
  }

  /** The S3 gateway's status port: ozone.s3g.webadmin.http-address, this host where that names none. */
  public static HostPort gatewayHttp(Configuration conf) {
    return reachable(HostPort.parse(conf.get(S3GatewayKeys.WEBADMIN_HTTP_ADDRESS), 0,
        S3GatewayKeys.WEBADMIN_HTTP_ADDRESS.name()), "localhost");
  }

  /** {@code bind} with {@code host} where it listens on every interface. */
  private static HostPort reachable(HostPort bind, String host) {
    boolean wildcard = bind.host().isEmpty() || bind.host().equals("0.0.0.0") || bind.host().equals("::");
    return wildcard ? new HostPort(host, bind.port()) : bind;
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
